"""Solver decisions per game: won / lost / unknown on random deals under a time budget.

    python bench/solve.py [--deals 20] [--seconds 10] [--games klondike,golf] [--no-write]
                          [--cpu]

Every game gets the same deals (a fixed random sample of deal numbers, so runs compare) and
the same budget per deal. For each game the table gives how many deals the solver won,
proved lost or left unknown when the budget ran out, the median and 95th-percentile time
per deal, and the search speed in positions (nodes) per second. Figures are of this machine
only. The results go to docs/benchmarks.md under "## Solver (bench/solve.py)"; the paragraphs
written under the table are kept. ``--cpu`` measures budgets and times in CPU seconds of the
process, for a machine shared with other jobs (wall-clock seconds then say little).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bench._report import last_section, notes_under_table, write_section  # noqa: E402
from games.solver import solve  # noqa: E402

TITLE = "Solver (bench/solve.py)"


def sample_seeds(count: int, salt: int = 2024) -> list[int]:
    """The deal numbers every run uses: a fixed sample, the same for every game."""
    return random.Random(salt).sample(range(1, 1_000_000), count)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def measure(game_id: str, seeds: list[int], seconds: float, options: dict | None = None,
            verbose: bool = False, clock: Callable[[], float] = time.perf_counter) -> dict:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    for seed in seeds:
        game = games.new(game_id, seed, **(options or {}))
        start = clock()
        deadline = start + seconds
        sol = solve(game, should_stop=lambda d=deadline: clock() >= d,
                    max_nodes=10**9)
        spent = clock() - start
        counts[sol.result] += 1
        times.append(spent)
        nodes += sol.nodes
        if verbose:
            print(f"  {game_id} #{seed}: {sol.result} {spent:.2f} s {sol.nodes} nodes",
                  flush=True)
    total = sum(times)
    return {**counts, "deals": len(seeds), "median": statistics.median(times),
            "p95": percentile(times, 95), "max": max(times),
            "nps": nodes / total if total else 0.0}


def table(rows: list[tuple[str, dict]]) -> list[str]:
    lines = ["| game | won | lost | unknown | won % | unknown % | median s | p95 s | max s "
             "| nodes/s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for gid, r in rows:
        n = r["deals"]
        lines.append(f"| {gid} | {r['won']} | {r['lost']} | {r['unknown']} "
                     f"| {100 * r['won'] / n:.0f} | {100 * r['unknown'] / n:.0f} "
                     f"| {r['median']:.2f} | {r['p95']:.2f} | {r['max']:.2f} "
                     f"| {r['nps']:.0f} |")
    return lines


def merged_rows(rows: list[tuple[str, dict]], text: str) -> list[str]:
    """The table rows of the last report (``text``) with the games of ``rows`` replaced or
    added: a run with ``--games`` re-measures some games and keeps the others' figures."""
    fresh = {gid: line for (gid, _), line in zip(rows, table(rows)[2:], strict=True)}
    out = []
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| game "):
            gid = line[2:].split(" |", 1)[0]
            out.append(fresh.pop(gid, line))
    out.extend(fresh.values())
    return sorted(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="random deals per game")
    ap.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    ap.add_argument("--games", help="comma-separated ids (default: all)")
    ap.add_argument("--salt", type=int, default=2024, help="picks the sample of deals")
    ap.add_argument("--no-write", action="store_true", help="print only, leave the docs alone")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every deal")
    ap.add_argument("--cpu", action="store_true",
                    help="budget and times in CPU seconds of this process (a shared machine)")
    args = ap.parse_args()
    ids = args.games.split(",") if args.games else games.ids()
    seeds = sample_seeds(args.deals, args.salt)
    rows = []
    for gid in ids:
        r = measure(gid, seeds, args.seconds, verbose=args.verbose,
                    clock=time.process_time if args.cpu else time.perf_counter)
        rows.append((gid, r))
        print(f"{gid:<28} won {r['won']:3} lost {r['lost']:3} unknown {r['unknown']:3}  "
              f"median {r['median']:6.2f} s  p95 {r['p95']:6.2f} s  {r['nps']:8.0f} nodes/s",
              flush=True)
    rows_text = table(rows)
    if args.games:
        rows_text = rows_text[:2] + merged_rows(rows, last_section(TITLE))
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; {args.deals} random deals per game (the same deal "
        f"numbers for every game, sample salt {args.salt}), default options, "
        f"{args.seconds:g} s{' of CPU time' if args.cpu else ''} per deal. Won: a winning line was found; lost: the complete "
        "search proved no line wins; unknown: the budget ran out first. Times are per deal.",
        "",
        *rows_text,
    ]
    if not args.no_write:
        kept = notes_under_table(last_section(TITLE))
        write_section(TITLE, "\n".join(lines) + ("\n\n" + kept if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
