"""Undecided deals of the castle family at a CPU budget (issue 17): deals 1-100 each.

    nice python bench/undecided_castle.py [--seconds 10] [--first 1] [--last 100] [--seeds other]
                                          [--games streets_and_alleys,king_albert]
                                          [--json out.json] [--write] [-v]
    python bench/undecided_castle.py --merge a.json b.json ... [--write]

The games: Streets and Alleys, King Albert with the standard reserve (no refill) and
Beleaguered Castle. Budgets and times are CPU seconds of this process (the machine is shared:
wall time would measure the other jobs). The deals are the plain deal numbers 1..100, not
bench/solve.py's random sample, so the figure compares with the issue's. ``--write`` puts
the table into docs/benchmarks.md under "Undecided deals: the castle family"; the notes
written under the table are kept. ``--json`` keeps every deal's verdict, time and nodes
(for comparing two versions of the search deal by deal); ``--merge`` makes the table from
such files instead of searching (a run split over deal ranges in several processes: CPU
time per deal does not depend on how many run side by side).
"""

from __future__ import annotations

import argparse
import json
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

TITLE = "Undecided deals: the castle family"
#: the games of this bench and the options each is measured with
GAMES: dict[str, dict] = {
    "streets_and_alleys": {},
    "king_albert": {"reserve_refill": False},
    "beleaguered_castle": {},
}


def run_deal(game_id: str, seed: int, seconds: float) -> dict:
    """One deal searched until decided or ``seconds`` of CPU are spent."""
    game = games.new(game_id, seed, **GAMES.get(game_id, {}))
    start = time.process_time()
    deadline = start + seconds
    sol = solve(game, max_nodes=10**9, should_stop=lambda: time.process_time() >= deadline)
    return {"seed": seed, "result": sol.result, "cpu": time.process_time() - start,
            "nodes": sol.nodes}


def summary(deals: list[dict]) -> dict:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for d in deals:
        counts[d["result"]] += 1
    times = [d["cpu"] for d in deals]
    nodes = sum(d["nodes"] for d in deals)
    return {**counts, "deals": len(deals), "median": statistics.median(times),
            "max": max(times), "nps": nodes / sum(times) if sum(times) else 0.0}


def table(rows: dict[str, dict]) -> list[str]:
    lines = ["| game | options | deals | won | lost | unknown | median CPU s | max CPU s "
             "| nodes/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for gid, r in rows.items():
        opts = ", ".join(f"{k}={v}" for k, v in GAMES.get(gid, {}).items()) or "default"
        lines.append(f"| {gid} | {opts} | {r['deals']} | {r['won']} | {r['lost']} | {r['unknown']} "
                     f"| {r['median']:.2f} | {r['max']:.2f} | {r['nps']:.0f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU budget per deal")
    ap.add_argument("--first", type=int, default=1, help="first deal number")
    ap.add_argument("--last", type=int, default=100, help="last deal number")
    ap.add_argument("--seeds", help="deal numbers instead of --first/--last: 3,7,9-12, or "
                    "'other' (the second 100 of issue 28, bench/undecided_klondike.py)")
    ap.add_argument("--games", help="comma-separated ids (default: the three)")
    ap.add_argument("--json", help="write every deal's result to this file")
    ap.add_argument("--write", action="store_true", help="write the table to docs/benchmarks.md")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every deal")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="make the table from the --json files of earlier runs")
    args = ap.parse_args(argv)
    if args.merge:
        return merge(args.merge, args.seconds, args.write)
    ids = args.games.split(",") if args.games else list(GAMES)
    for gid in ids:
        if gid not in GAMES:
            print(f"undecided_castle: unknown game {gid!r} (one of {', '.join(GAMES)})",
                  file=sys.stderr)
            return 2
    if args.seconds <= 0 or args.first < 1 or args.last < args.first:
        print("undecided_castle: --seconds must be positive and 1 <= --first <= --last",
              file=sys.stderr)
        return 2
    seeds = list(range(args.first, args.last + 1))
    if args.seeds:
        from bench.undecided_klondike import seeds_or_say

        parsed = seeds_or_say("undecided_castle", args.seeds, "3,7,9-12 or other")
        if parsed is None:
            return 2
        seeds = parsed
    per_game: dict[str, list[dict]] = {}
    rows: dict[str, dict] = {}
    for gid in ids:
        deals = []
        for seed in seeds:
            d = run_deal(gid, seed, args.seconds)
            deals.append(d)
            if args.verbose:
                print(f"  {gid} #{seed}: {d['result']} {d['cpu']:.2f} s {d['nodes']} nodes",
                      flush=True)
        per_game[gid] = deals
        r = rows[gid] = summary(deals)
        undecided = [d["seed"] for d in deals if d["result"] == "unknown"]
        print(f"{gid:<20} won {r['won']:3} lost {r['lost']:3} unknown {r['unknown']:3} "
              f"median {r['median']:.2f} s  {r['nps']:.0f} nodes/s  undecided: {undecided}",
              flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(per_game, indent=1), encoding="utf-8")
    if args.write:
        write(rows, args.first, args.last, args.seconds)
    return 0


def merge(paths: list[str], seconds: float, write_doc: bool) -> int:
    """The table of the per-deal results in ``paths`` (each ``{game: [deal, ...]}``)."""
    per_game: dict[str, list[dict]] = {}
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"undecided_castle: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        if not isinstance(data, dict) or not all(g in GAMES for g in data):
            print(f"undecided_castle: {path} is not a --json file of this bench",
                  file=sys.stderr)
            return 2
        for gid, deals in data.items():
            per_game.setdefault(gid, []).extend(deals)
    rows = {}
    seeds = []
    for gid in GAMES:
        if gid in per_game:
            deals = sorted(per_game[gid], key=lambda d: d["seed"])
            seeds += [d["seed"] for d in deals]
            r = rows[gid] = summary(deals)
            undecided = [d["seed"] for d in deals if d["result"] == "unknown"]
            print(f"{gid:<20} won {r['won']:3} lost {r['lost']:3} unknown {r['unknown']:3} "
                  f"undecided: {undecided}")
    if write_doc and rows:
        write(rows, min(seeds), max(seeds), seconds)
    return 0


def write(rows: dict[str, dict], first: int, last: int, seconds: float) -> None:
    """The table into docs/benchmarks.md, keeping the notes written under it."""
    head = (f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}; deals out of {first}-{last}, {seconds:g} s of CPU "
            "time per deal (`nice python bench/undecided_castle.py --write`). Won: a winning line "
            "was found; lost: the complete search proved that no line wins; unknown: the "
            "budget ran out first.")
    kept = notes_under_table(last_section(TITLE))
    write_section(TITLE, "\n".join([head, "", *table(rows)]) + ("\n\n" + kept if kept else ""))


if __name__ == "__main__":
    sys.exit(main())
