#!/usr/bin/env python3
"""Find winnable deals of Happy Couples (default rules) a hundred times faster than
``kiosk winnable``, and add them to ``assets/deals/happy_couples.json``.

Why a tool of its own: under the source's rule (deal only when no touching pair is left)
about one deal in 290,000 can be won, so the list needs millions of deals decided. The
general solver decides one in a few milliseconds, mostly spent setting up; this check takes
well under one. It is exact, by an argument particular to this game: cards never move, so
once the opening pairs are gone no two cards on the table can ever come to touch, and every
pair from then on is the card just dealt with one of its same-rank neighbours. The game is
therefore forced apart from which neighbour (tried both ways), and lost as soon as more cards
lie on the table than remain in the stock (each needs a partner from the stock). Every deal
it finds won is solved again by the general solver, whose line is what the list stores, so a
bug here could only miss deals, never ship a wrong one.

    python3 tools/happy_couples_deals.py --seconds 600     # resumes after the list's last_seed

The list's tally (``solver.results``) counts every deal number tried, by either route.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from games.engine.cards import RANK  # noqa: E402
from games.families.grid import touching  # noqa: E402
from games.happy_couples import LONG, WIDE  # noqa: E402
from games.solver import solve  # noqa: E402
from kiosk.solving import deals  # noqa: E402

GAME = "happy_couples"
CELLS = LONG * WIDE
NEIGHBOURS: list[list[int]] = [[] for _ in range(CELLS)]
for _a, _b in touching(LONG, WIDE):
    NEIGHBOURS[_a].append(_b)
    NEIGHBOURS[_b].append(_a)


def _after_opening(cells: list[int], stock: list[int], k: int, table: int) -> bool:
    """From a position without a touching pair: deal (the top card is ``stock[k - 1]``),
    pair the new card with a same-rank neighbour if it has one, and so on."""
    while True:
        if k == 0 or table > k:
            return table == 0
        e = cells.index(-1)
        card = stock[k - 1]
        k -= 1
        mates = [n for n in NEIGHBOURS[e] if cells[n] == card]
        if not mates:
            cells[e] = card
            table += 1
        elif len(mates) == 1:
            cells[mates[0]] = -1
            table -= 1
        else:
            for m in mates:
                nxt = cells[:]
                nxt[m] = -1
                if _after_opening(nxt, stock, k, table - 1):
                    return True
            return False


def winnable(cells: list[int], stock: list[int]) -> bool:
    """``cells``: the ranks on the grid (-1: empty), ``stock``: ranks, top card last."""
    pairs = [(a, b) for a in range(CELLS) if cells[a] >= 0 for b in NEIGHBOURS[a]
             if b > a and cells[b] == cells[a]]
    if not pairs:
        return _after_opening(cells[:], stock, len(stock), sum(c >= 0 for c in cells))
    for a, b in pairs:
        nxt = cells[:]
        nxt[a] = nxt[b] = -1
        if winnable(nxt, stock):
            return True
    return False


def ranks(game: games.Game) -> tuple[list[int], list[int]]:
    cells = [RANK[p[-1]] if p else -1 for p in (game.cards[game.index[f"G{i + 1}"]]
                                                for i in range(CELLS))]
    return cells, [RANK[c] for c in game.cards[game.stock]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=600.0, help="how long to search")
    ap.add_argument("--count", type=int, default=300, help="stop when the list holds this many")
    args = ap.parse_args()
    lst = deals.load_strict(GAME) or deals.DealList(GAME, games.new(GAME, 1).opts)
    tally = {"won": 0, "lost": 0, "unknown": 0, **lst.results}
    seed = int(lst.solver.get("last_seed", 0)) + 1
    lst.solver.setdefault("fast_check_from", seed)  # deal numbers this tool decided
    end = time.monotonic() + args.seconds
    saved = time.monotonic()
    try:
        while time.monotonic() < end and len(lst.deals) < args.count:
            game = games.new(GAME, seed)
            if winnable(*ranks(game)):
                sol = solve(game, should_stop=lambda: False)
                if not sol.won:
                    raise SystemExit(f"#{seed}: the fast check and the solver disagree")
                line = [game.notation(m) for m in sol.moves]
                lst.deals.append({"seed": seed, "moves": deals.compress(game, line)})
                tally["won"] += 1
                print(f"#{seed}: won", flush=True)
            else:
                tally["lost"] += 1
            lst.solver.update({"results": dict(tally), "last_seed": seed})
            if time.monotonic() - saved > 60:
                deals.save(lst)
                saved = time.monotonic()
            seed += 1
    except KeyboardInterrupt:
        pass
    path = deals.save(lst)
    print(f"{len(lst.deals)} deals in {path}; tried up to #{seed - 1}: {tally}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
