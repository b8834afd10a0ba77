"""Undecided deals of Klondike and Canfield: deals 1-100 under a CPU-time budget each.

    python bench/undecided_klondike.py [--settings draw1,draw3,canfield] [--seeds 1-100|other]
                                       [--cpu 10] [--no-write] [-v]

Issue 17 counts, for seeds 1-100 at 10 s of CPU a deal, the deals the solver neither wins
nor proves lost, for three settings that published solvers decide almost always: Klondike
turning one card with unlimited passes, turning three with unlimited passes, and Canfield
with Morehead's whole-pile moves. Budgets and times are CPU seconds of this process, so
that other jobs on a shared machine do not change the figures. The table goes to
docs/benchmarks.md under "## Undecided deals: Klondike and Canfield" (hand-written
paragraphs under the table are kept); the settings not run keep their rows.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bench._report import last_section, notes_under_table, write_section  # noqa: E402
from games.solver import solve  # noqa: E402

TITLE = "Undecided deals: Klondike and Canfield"
#: name -> (game id, options, what the row says)
SETTINGS: dict[str, tuple[str, dict, str]] = {
    "draw1": ("klondike", {"draw": 1, "redeals": -1}, "klondike draw 1, unlimited passes"),
    "draw3": ("klondike", {"draw": 3, "redeals": -1}, "klondike draw 3, unlimited passes"),
    "canfield": ("canfield", {"group_moves": "whole_pile"}, "canfield, whole-pile moves"),
}


def other_seeds() -> list[int]:
    """Issue 28's second set: 100 deal numbers the bench picks beyond 1-100 (a fixed
    sample, so that runs compare), against tuning the search to the first hundred."""
    from bench.solve import sample_seeds

    return sample_seeds(100, salt=28)


def parse_seeds(text: str) -> list[int]:
    """``"1-100"``, ``"3,7,9-12"`` or ``"other"`` (:func:`other_seeds`) as deal numbers."""
    if text == "other":
        return other_seeds()
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def seeds_or_say(prog: str, text: str, like: str) -> list[int] | None:
    """:func:`parse_seeds` of a ``--seeds`` value, or None once ``prog`` has said on stderr
    that it is not ``like`` the forms it takes (the caller exits with status 2)."""
    try:
        return parse_seeds(text)
    except ValueError:
        print(f"{prog}: --seeds {text!r} is not like {like}", file=sys.stderr)
        return None


def measure(name: str, seeds: list[int], cpu: float, verbose: bool = False) -> dict:
    gid, options, _ = SETTINGS[name]
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    undecided: list[int] = []
    clock = time.process_time
    for seed in seeds:
        game = games.new(gid, seed, **options)
        start = clock()
        deadline = start + cpu
        sol = solve(game, should_stop=lambda d=deadline: clock() >= d, max_nodes=10**10)
        spent = clock() - start
        counts[sol.result] += 1
        times.append(spent)
        if sol.result == "unknown":
            undecided.append(seed)
        if verbose:
            print(f"  {name} #{seed}: {sol.result} {spent:.2f} s {sol.nodes} nodes "
                  f"{'/'.join(sol.passes)}", flush=True)
    return {**counts, "deals": len(seeds), "median": statistics.median(times),
            "max": max(times), "total": sum(times), "undecided": undecided}


def row(name: str, r: dict) -> str:
    seeds = ", ".join(map(str, r["undecided"])) or "none"
    return (f"| {SETTINGS[name][2]} | {r['won']} | {r['lost']} | {r['unknown']} "
            f"| {r['median']:.2f} | {r['max']:.2f} | {r['total']:.0f} | {seeds} |")


HEAD = ["| setting | won | lost | undecided | median CPU s | max CPU s | total CPU s "
        "| undecided deals |", "|---|---:|---:|---:|---:|---:|---:|---|"]



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settings", default=",".join(SETTINGS),
                    help=f"comma-separated, of {', '.join(SETTINGS)}")
    ap.add_argument("--seeds", default="1-100",
                    help="deal numbers, e.g. 1-100 or 4,9,20-30, or 'other' (the bench's second 100)")
    ap.add_argument("--cpu", type=float, default=10.0, help="CPU seconds a deal")
    ap.add_argument("--no-write", action="store_true", help="print only, leave the docs alone")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every deal")
    args = ap.parse_args(argv)
    names = args.settings.split(",")
    for n in names:
        if n not in SETTINGS:
            print(f"undecided_klondike: unknown setting {n!r} (known: {', '.join(SETTINGS)})",
                  file=sys.stderr)
            return 2
    seeds = seeds_or_say("undecided_klondike", args.seeds, "1-100 or 3,7,9-12")
    if seeds is None:
        return 2
    if not seeds or args.cpu <= 0:
        print("undecided_klondike: give at least one seed and a positive --cpu", file=sys.stderr)
        return 2
    fresh = {}
    for n in names:
        r = measure(n, seeds, args.cpu, args.verbose)
        fresh[SETTINGS[n][2]] = row(n, r)
        print(fresh[SETTINGS[n][2]], flush=True)
    if args.no_write:
        return 0
    old = last_section(TITLE)
    rows = []
    for line in old.splitlines():
        if line.startswith("| ") and not line.startswith("| setting "):
            label = line[2:].split(" |", 1)[0]
            rows.append(fresh.pop(label, line))
    rows.extend(fresh.values())
    kept = notes_under_table(old)
    body = [f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}; deals {args.seeds}, {args.cpu:g} s of CPU time a "
            "deal (`python bench/undecided_klondike.py`). Won: a winning line was found; "
            "lost: the complete search proved that no line wins; undecided: the budget ran "
            "out first.", "", *HEAD, *rows]
    write_section(TITLE, "\n".join(body) + ("\n\n" + kept if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
