"""Engine speed per game: random playouts per second and legal-move generation per second.

    python bench/engine.py [--seconds 1.0] [--games klondike,golf] [--no-write]

Each game gets the same time budget. A playout deals a fresh game and plays random legal moves
until the game is over or 300 moves are made; undo is measured by taking them all back, so
the figure covers make and unmake as a solver uses them. Figures are of this machine only:
compare them with earlier runs of the same machine, not across machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bench._report import write_section  # noqa: E402

MAX_MOVES = 300


def measure(game_id: str, seconds: float) -> dict[str, float]:
    rnd = random.Random(12345)
    playouts = moves_played = gen_calls = gen_moves = 0
    gen_time = 0.0
    seed = 1
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = games.new(game_id, seed)
        seed += 1
        for _ in range(MAX_MOVES):
            t0 = time.perf_counter()
            moves = g.legal_moves()
            gen_time += time.perf_counter() - t0
            gen_calls += 1
            gen_moves += len(moves)
            if not moves or g.won:
                break
            g.play(rnd.choice(moves), check=False)
            moves_played += 1
        while g.can_undo:
            g.undo()
        playouts += 1
    elapsed = time.perf_counter() - start
    return {
        "playouts_s": playouts / elapsed,
        "moves_s": moves_played / elapsed,
        "gen_calls_s": gen_calls / gen_time if gen_time else 0.0,
        "gen_moves_s": gen_moves / gen_time if gen_time else 0.0,
        "avg_len": moves_played / max(playouts, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time budget per game")
    ap.add_argument("--games", help="comma-separated ids (default: all)")
    ap.add_argument("--no-write", action="store_true", help="print only, leave the docs alone")
    args = ap.parse_args()
    ids = args.games.split(",") if args.games else games.ids()
    rows = []
    for gid in ids:
        r = measure(gid, args.seconds)
        rows.append((gid, r))
        print(f"{gid:<28} {r['playouts_s']:8.1f} playouts/s {r['moves_s']:9.0f} moves/s "
              f"{r['gen_calls_s']:9.0f} legal_moves()/s {r['gen_moves_s']:10.0f} moves generated/s",
              flush=True)
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f} at the end of the run; "
        f"{args.seconds:g} s per game; playouts of random legal moves (at most {MAX_MOVES}), "
        "each undone to the deal.",
        "",
        "| game | playouts/s | moves+undos/s | legal_moves() calls/s | moves generated/s | moves per playout |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for gid, r in rows:
        lines.append(f"| {gid} | {r['playouts_s']:.1f} | {r['moves_s']:.0f} | {r['gen_calls_s']:.0f} "
                     f"| {r['gen_moves_s']:.0f} | {r['avg_len']:.0f} |")
    if not args.no_write:
        write_section("Rules engine (bench/engine.py)", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
