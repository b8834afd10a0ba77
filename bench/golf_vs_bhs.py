"""Golf against black-hole-solver: the same deals, the same verdicts, CPU time compared.

    python bench/golf_vs_bhs.py [--deals 200] [--first 1] [--bhs DIR] [--no-write]

Shlomi Fish's black-hole-solver (C, BSD licence) solves Golf with ``--game golf``; it wraps
the ranks (king to ace) unless told ``--no-wrap-ranks``, which is our rule, and plays a queen
on a king with ``--queens-on-kings``. Its ``multi-bhs-solver`` solves many boards in one
process, so both sides are timed the same way: one fresh process per rule setting solves
all the deals, and its CPU time (user + system, from ``getrusage(RUSAGE_CHILDREN)`` around
the child) is the figure. Ours is ``python bench/golf_vs_bhs.py --worker``: the interpreter's
start, the imports of ``games`` and the searches of every deal are all inside it. Verdicts
(won / lost) must agree deal by deal; a disagreement is printed and makes the exit status 1.

The solver is not a dependency of the project: it is looked for in ``--bhs``, then
``$BLACK_HOLE_SOLVER_DIR``, then ``PATH``, then /opt/bhs/bin. Without it the bench says so
and stops with status 0 (nothing measured, nothing written). Debian bookworm does not
package it; build it from its source (``c-solver``: the two programs need only a C compiler,
its rinutils headers and its bundled xxHash).

Results go to docs/benchmarks.md under "## Golf against black-hole-solver".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TITLE = "Golf against black-hole-solver"
#: our rule settings and the flags that give black-hole-solver the same rules
RULES = {
    "default": ({}, ["--no-queens-on-kings"]),
    "queen_on_king": ({"queen_on_king": True}, ["--queens-on-kings"]),
}
BASE_FLAGS = ["--game", "golf", "--no-wrap-ranks", "--quiet"]
VERDICTS = {"Solved!": "won", "Unsolved!": "lost", "Intractable!": "unknown"}


def board_text(seed: int, options: dict) -> str:
    """One deal in black-hole-solver's board format: the talon with the next card first, the
    discard pile's top card as the foundation, and each column from bottom to top card."""
    import games
    from games.engine.cards import text

    g = games.new("golf", seed, **options)
    cards = g.cards
    lines = ["Talon: " + " ".join(text(c) for c in reversed(cards[g.stock])),
             "Foundations: " + text(cards[g.waste][-1])]
    lines += [" ".join(text(c) for c in cards[t]) for t in g.tableau]
    return "\n".join(lines) + "\n"


def find_bhs(where: str | None) -> Path | None:
    """The multi-bhs-solver program, or None."""
    for d in (where, os.environ.get("BLACK_HOLE_SOLVER_DIR")):
        if d and (Path(d) / "multi-bhs-solver").is_file():
            return Path(d) / "multi-bhs-solver"
    found = shutil.which("multi-bhs-solver")
    if found:
        return Path(found)
    fallback = Path("/opt/bhs/bin/multi-bhs-solver")
    return fallback if fallback.is_file() else None


def child_cpu(cmd: list[str]) -> tuple[str, float]:
    """Run ``cmd`` to the end; its standard output and the CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_bhs(program: Path, seeds: list[int], rules: str) -> tuple[list[str], float]:
    options, flags = RULES[rules]
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for seed in seeds:
            f = Path(tmp) / f"{seed}.board"
            f.write_text(board_text(seed, options), encoding="ascii")
            files.append(str(f))
        out, cpu = child_cpu([str(program), *BASE_FLAGS, *flags, *files])
    verdicts = [VERDICTS[line] for line in out.splitlines() if line in VERDICTS]
    if len(verdicts) != len(seeds):
        raise SystemExit(f"black-hole-solver gave {len(verdicts)} verdicts for {len(seeds)} "
                         f"deals:\n{out[-500:]}")
    return verdicts, cpu


def run_ours(seeds: list[int], rules: str) -> tuple[list[str], float]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", rules,
           "--first", str(seeds[0]), "--deals", str(len(seeds))]
    out, cpu = child_cpu(cmd)
    return json.loads(out), cpu


def worker(rules: str, seeds: list[int]) -> None:
    """The timed process on our side: solve every deal, print the verdicts as JSON."""
    import games
    from games.solver import solve

    options = RULES[rules][0]
    print(json.dumps([solve(games.new("golf", s, **options), max_nodes=10**9).result
                      for s in seeds]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="how many deals")
    ap.add_argument("--first", type=int, default=1, help="the first deal number")
    ap.add_argument("--bhs", help="the folder holding multi-bhs-solver")
    ap.add_argument("--rules", choices=sorted(RULES), action="append",
                    help="measure only these rule settings (default: both)")
    ap.add_argument("--no-write", action="store_true", help="print, do not touch the docs")
    ap.add_argument("--worker", choices=sorted(RULES), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.deals < 1:
        print("golf_vs_bhs: --deals must be at least 1", file=sys.stderr)
        return 2
    seeds = list(range(args.first, args.first + args.deals))
    if args.worker:
        worker(args.worker, seeds)
        return 0
    program = find_bhs(args.bhs)
    if program is None:
        print("golf_vs_bhs: black-hole-solver (multi-bhs-solver) not found: give --bhs DIR or "
              "$BLACK_HOLE_SOLVER_DIR; nothing measured", file=sys.stderr)
        return 0
    rows = []
    mismatches = 0
    for rules in args.rules or list(RULES):
        theirs, bhs_cpu = run_bhs(program, seeds, rules)
        ours, our_cpu = run_ours(seeds, rules)
        differ = [s for s, a, b in zip(seeds, ours, theirs, strict=True) if a != b]
        for s in differ:
            i = seeds.index(s)
            print(f"  {rules} deal {s}: ours {ours[i]}, black-hole-solver {theirs[i]}")
        mismatches += len(differ)
        rows.append((rules, ours.count("won"), ours.count("lost"), ours.count("unknown"),
                     len(differ), bhs_cpu, our_cpu))
        print(f"{rules}: {len(differ)} verdicts differ; black-hole-solver {bhs_cpu:.2f} s, "
              f"ours {our_cpu:.2f} s CPU ({our_cpu / bhs_cpu:.2f}x)", flush=True)
    _, start_cpu = child_cpu([sys.executable, "-c", "import games, games.solver"])
    lines = [
        f"`python bench/golf_vs_bhs.py --deals {args.deals} --first {args.first}` on "
        f"{platform.machine()}, Python {platform.python_version()}: deals "
        f"{seeds[0]}-{seeds[-1]}, each rule setting solved by one fresh process on each side "
        "(black-hole-solver's multi-bhs-solver with `--game golf --no-wrap-ranks`; ours "
        "`games.solver.solve` with no budget), CPU seconds (user + system) of the whole "
        "process, so Python's start and imports are inside our figure "
        f"(they alone take {start_cpu:.2f} s).",
        "",
        "| rules | won | lost | unknown | verdicts differing | black-hole-solver CPU s "
        "| ours CPU s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for rules, won, lost, unknown, differ, bhs_cpu, our_cpu in rows:
        lines.append(f"| {rules} | {won} | {lost} | {unknown} | {differ} | {bhs_cpu:.2f} "
                     f"| {our_cpu:.2f} | {our_cpu / bhs_cpu:.2f}x |")
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        from bench._report import last_section, notes_under_table, write_section
        kept = notes_under_table(last_section(TITLE))
        write_section(TITLE, body + ("\n\n" + kept if kept else ""))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
