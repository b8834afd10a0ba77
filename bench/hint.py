"""How often the table's Hint button would answer on a Raspberry Pi 4, estimated here.

    python bench/hint.py [--positions 10] [--hint-seconds 1.5] [--slowdown auto|X]
                         [--games klondike,golf] [--no-write]

There is no Pi on the build machine, so the Pi's solver is modelled as this machine's solver
slowed down ``X`` times: each position gets ``hint_seconds / X`` seconds of CPU time here,
which is the work a Pi 4 does in ``hint_seconds``. ``--slowdown auto`` measures ``X`` with a
small n-body simulation (pure Python floating point and attribute-free loops, like the
solver's inner loops) against a published Pi 4 time for the same amount of work (see
``PI4_NBODY``); that figure is old (Python 3.7, which is slower than the Pi image's
Python), so the estimate errs on the slow side.

Positions are what a visitor asks about: a deal as the kiosk would deal it (from the
winnable list where the game deals from it by default, otherwise any deal), then 0 to 25
moves of a casual player (half of them the solver's first choice, half any legal move).
Positions on a stored winning line are answered from the list at once by the table; these
mostly are not, so the figures are for the harder case. The round trip through the real
worker process (pickling the position, rebuilding it, answering) is measured once on a
trivial request and added, slowed down, to every time.

Results: per game, how many hints the solver found (a winning move), how many suggestions
it made (no win found in the budget: the move its search rates best), proved that no win
is left, or could not answer at all ("No hint found"), and the estimated Pi 4 seconds
from the tap to the answer (median and worst). They go to docs/benchmarks.md under
"## Hints on a Raspberry Pi 4 (bench/hint.py)".
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bench._report import write_section  # noqa: E402
from bench.solve import percentile  # noqa: E402
from games.search import Compound, searchable  # noqa: E402
from kiosk.solving import deals  # noqa: E402
from kiosk.solving.hints import HintWorker  # noqa: E402
from kiosk.solving.hintworker import answer  # noqa: E402

TITLE = "Hints on a Raspberry Pi 4 (bench/hint.py)"
#: steps of the n-body calibration and a Pi 4's seconds for PI4_NBODY[0] steps: 5,000,000
#: steps in 158.3 s on a Pi 4 Model B at 1.5 GHz, performance governor (C. Mehta,
#: "Performance Analysis of Languages on Raspberry Pi",
#: https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages)
PI4_NBODY = (5_000_000, 158.3)
CALIBRATION_STEPS = 200_000


def _bodies() -> list[list[float]]:
    """Sun and the four giant planets (positions in AU, velocities in AU/day x 365.24,
    masses in solar masses x 4 pi^2): the classic n-body test system."""
    pi4 = 4 * math.pi * math.pi
    year = 365.24
    data = [
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
        (4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
         9.54791938424326609e-04),
        (8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
         2.85885980666130812e-04),
        (1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
         4.36624404335156298e-05),
        (1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
         5.15138902046611451e-05),
    ]
    return [[x, y, z, vx * year, vy * year, vz * year, m * pi4]
            for x, y, z, vx, vy, vz, m in data]


def nbody_seconds(steps: int, dt: float = 0.01) -> float:
    """CPU seconds this machine takes for ``steps`` steps of the five-body simulation."""
    bodies = _bodies()
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    start = time.process_time()
    for _ in range(steps):
        for b1, b2 in pairs:
            dx, dy, dz = b1[0] - b2[0], b1[1] - b2[1], b1[2] - b2[2]
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * math.sqrt(d2))
            m1, m2 = b1[6] * mag, b2[6] * mag
            b1[3] -= dx * m2
            b1[4] -= dy * m2
            b1[5] -= dz * m2
            b2[3] += dx * m1
            b2[4] += dy * m1
            b2[5] += dz * m1
        for b in bodies:
            b[0] += dt * b[3]
            b[1] += dt * b[4]
            b[2] += dt * b[5]
    return time.process_time() - start


def measured_slowdown() -> float:
    """How many times slower a Pi 4 runs the n-body loop than this machine."""
    here = nbody_seconds(CALIBRATION_STEPS) * PI4_NBODY[0] / CALIBRATION_STEPS
    return PI4_NBODY[1] / here


def visitor_position(game_id: str, rng: random.Random) -> games.Game:
    """A position a visitor could ask about: the kiosk's kind of deal, a few casual moves."""
    winnable, _why = deals.default_winnable(game_id)
    lst = deals.load(game_id) if winnable else None
    seed = rng.choice(lst.seeds) if lst is not None and lst.deals else rng.randrange(1, 10**6)
    game = games.new(game_id, seed)
    for _ in range(rng.randint(0, 25)):
        if game.over:
            break
        moves = game.legal_moves()
        if not moves:
            break
        sensible = searchable(game).solver_moves(True)
        pick = sensible[0] if sensible and rng.random() < 0.5 else rng.choice(moves)
        for move in pick.moves if type(pick) is Compound else (pick,):  # a talon move
            game.play(move, check=False)
    return game


def round_trip() -> float:
    """Seconds of one request through the real worker process on this machine, beyond the
    search itself (a started worker, a position that is decided at once)."""
    worker = HintWorker()
    try:
        worker.ping()
        game = games.new("clock", 1)
        best = math.inf
        for _ in range(5):
            start = time.perf_counter()
            worker.request(game, 1.0)
            replies: list = []
            while not replies:
                replies = worker.poll()
                time.sleep(0.001)
            best = min(best, time.perf_counter() - start - replies[0].seconds)
        return max(best, 0.0)
    finally:
        worker.stop()


def measure(game_id: str, positions: int, budget: float, rng: random.Random) -> dict:
    """Answer ``positions`` visitor positions with ``budget`` CPU seconds each, as the
    hint worker answers them (:func:`kiosk.solving.hintworker.answer`)."""
    counts = dict.fromkeys(KINDS, 0)
    times: list[float] = []
    for _ in range(positions):
        game = visitor_position(game_id, rng)
        start = time.process_time()
        deadline = start + budget
        out = answer(game, lambda d=deadline: time.process_time() >= d, max_nodes=10**9)
        kind = ("suggested" if out["result"] == "unknown" and out["suggestion"]
                else out["result"])
        counts[kind] += 1
        times.append(time.process_time() - start)
    return {**counts, "times": times}


#: what an answer can be: a proved hint, a suggestion, a proof of no win, nothing
KINDS = ("won", "suggested", "lost", "unknown")


def solitaires() -> list[str]:
    """The games whose table has a Hint button: every game but those played at seats
    against the computer (Draw Poker, Follow the Rules), which have no solver hint."""
    from games.families.seats import SeatedGame

    return [g for g in games.ids() if not isinstance(games.new(g, 1), SeatedGame)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10, help="visitor positions per game")
    ap.add_argument("--hint-seconds", type=float, default=1.5,
                    help="the table's hint budget on the Pi ([table] hint_seconds)")
    ap.add_argument("--slowdown", default="auto",
                    help="how many times slower a Pi 4 is than this machine, or 'auto'")
    ap.add_argument("--games", help="comma-separated ids (default: all)")
    ap.add_argument("--salt", type=int, default=2024, help="picks the positions")
    ap.add_argument("--no-write", action="store_true", help="print only, leave the docs alone")
    args = ap.parse_args()
    try:
        slowdown = measured_slowdown() if args.slowdown == "auto" else float(args.slowdown)
    except ValueError:
        ap.error(f"--slowdown must be 'auto' or a number, not {args.slowdown!r}")
    if slowdown <= 0 or args.hint_seconds <= 0 or args.positions <= 0:
        ap.error("--slowdown, --hint-seconds and --positions must be positive")
    ids = args.games.split(",") if args.games else solitaires()
    unknown_ids = [g for g in ids if g not in games.ids()]
    if unknown_ids:
        ap.error(f"unknown game id(s): {', '.join(unknown_ids)}")
    overhead = round_trip() * slowdown
    budget = args.hint_seconds / slowdown
    print(f"slowdown {slowdown:.2f}: {budget:.3f} s of CPU here per hint; "
          f"worker round trip on a Pi about {overhead * 1000:.0f} ms", flush=True)
    rows = []
    total = dict.fromkeys(KINDS, 0)
    for gid in ids:
        r = measure(gid, args.positions, budget, random.Random(f"{args.salt}:{gid}"))
        pi = [t * slowdown + overhead for t in r["times"]]
        for k in total:
            total[k] += r[k]
        rows.append(f"| {gid} | {r['won']} | {r['suggested']} | {r['lost']} | {r['unknown']} "
                    f"| {statistics.median(pi):.2f} | {percentile(pi, 95):.2f} "
                    f"| {max(pi):.2f} |")
        print(rows[-1], flush=True)
    n = sum(total.values())
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}. A Pi 4 is modelled as this machine slowed down "
        f"{slowdown:.1f} times ({'n-body calibration, see the script' if args.slowdown == 'auto' else 'given'}); "
        f"hint budget {args.hint_seconds:g} s on the Pi = {budget:.3f} s of CPU here; "
        f"{args.positions} visitor positions per game (a deal as the kiosk deals it, then "
        "0-25 casual moves); worker round trip on the Pi about "
        f"{overhead * 1000:.0f} ms, included. Hint: a winning move was found (proved); "
        "suggestion: no win was found in the budget, and the table shows the move the "
        "search rates best, saying that it is a suggestion, not a sure win; no win: proved "
        "that no line wins any more (the table offers Undo); none: \"No hint found\" (the "
        "budget ran out with no move to suggest). Seconds are the Pi's, from the tap to "
        "the answer (a suggestion comes just after the budget).",
        "",
        f"All games: {total['won']} hints, {total['suggested']} suggestions, "
        f"{total['lost']} no win, {total['unknown']} none of {n} positions: "
        f"{100 * (total['won'] + total['lost']) / n:.1f}% answered with a proof (a hint or "
        f"no win), {100 * (n - total['unknown']) / n:.1f}% with a move or a proof.",
        "",
        "| game | hint | suggestion | no win | none | median s | p95 s | max s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    if not args.no_write:
        write_section(TITLE, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
