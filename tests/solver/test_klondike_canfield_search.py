"""The Klondike and Canfield search hooks against a plain search, on small random positions.

Issue 17's settings (Klondike with unlimited passes turning one or three, Canfield with
whole-pile moves) are searched with the talon as a cycle: the key folds how far the stock
is turned, and talon cards are turned round to and played as one compound move. These
hooks may only make the search faster: wherever a search of the plain legal moves (exact
key but for the column order, no foundation card taken back) wins, the solver must win,
and every win it finds must replay. Positions have few
cards left out of the foundations, so the plain search is exhaustive in milliseconds."""

from __future__ import annotations

import random

import pytest

import games
from games import solver
from games.engine.cards import RANK, SUIT, parse, text
from games.search import searchable

from ..conftest import arrange, plain_search
from .positions import foundations, home_counts, split_talon

#: positions the plain search may meet; bigger cases are skipped
LIMIT = 3_000
#: cards out of the foundations
LEFT = 5


def random_klondike(rnd: random.Random, draw: int) -> games.Game:
    """Each suit home up to a random rank; the cards left dealt at random to the columns
    (some face down), the waste and the stock."""
    g = searchable(games.new("klondike", 1, draw=draw, redeals=-1))
    piles, left = foundations(home_counts(rnd, 6, LEFT))
    rnd.shuffle(left)
    down: dict[str, int] = {}
    n_talon = rnd.randint(0, min(len(left), 5))
    split_talon(rnd, left[:n_talon], piles, down)
    rest = left[n_talon:]
    cols: list[list[int]] = [[] for _ in range(7)]
    for c in rest:
        cols[rnd.randrange(7)].append(c)
    for i, col in enumerate(cols):
        if col:
            piles[f"T{i + 1}"] = " ".join(text(c) for c in col)
            down[f"T{i + 1}"] = rnd.randint(0, len(col) - 1)
    return arrange(g, piles, down, redeals=-1)


def random_canfield(rnd: random.Random) -> games.Game:
    """Canfield from a random base rank with whole-pile moves: each suit home up to a
    random length, the rest in the reserve, the four columns, the waste and the stock."""
    g = searchable(games.new("canfield", 1, group_moves="whole_pile"))
    base = rnd.randint(1, 13)
    piles, left = foundations(home_counts(rnd, 5, LEFT), base)
    rnd.shuffle(left)
    down: dict[str, int] = {}
    n_reserve = rnd.randint(0, min(3, len(left)))
    piles["R"] = " ".join(text(c) for c in left[:n_reserve])
    down["R"] = max(0, n_reserve - 1)
    left = left[n_reserve:]
    n_talon = rnd.randint(0, len(left))
    split_talon(rnd, left[:n_talon], piles, down)
    rest = left[n_talon:]
    # columns hold runs (each card fits on the one under it); a column is never empty
    # while the reserve lasts
    reserve = piles["R"].split()
    cols: list[list[int]] = [[] for _ in range(4)]
    build = g.rule[g.tableau[0]].build
    waste = piles["W"].split()
    for c in rest:
        i = rnd.randrange(4)
        if not cols[i] or build.fits(c, cols[i][-1]):
            cols[i].append(c)
        else:
            waste.append(text(c))
    for col in cols:
        if not col and reserve:
            col.append(parse(reserve.pop()))
    piles["R"] = " ".join(reserve)
    down["R"] = max(0, len(reserve) - 1)
    piles["W"] = " ".join(waste)
    for i, col in enumerate(cols):
        piles[f"T{i + 1}"] = " ".join(text(c) for c in col)
    return arrange(g, piles, down, base=base, redeals=-1)


def folded_key(g: games.Game) -> bytes:
    """The exact position with the columns in sorted order (they obey the same rules): the
    only folding the plain search does, to keep it small."""
    cols = set(g.tableau)
    rest = [bytes((i, g.down[i], *p)) for i, p in enumerate(g.cards) if i not in cols]
    tab = sorted(bytes((g.down[i], *g.cards[i])) for i in cols)
    return b"\xff".join(rest + tab) + repr(tuple(g.vars.values())).encode()


def forward_moves(g: games.Game) -> list:
    """The legal moves but those taking a card back from a foundation: without them the
    plain search stays small (every foundation top could come back otherwise)."""
    role = g.role_of
    return [m for m in g.legal_moves() if not (m.kind == "move" and role[m.src] == "foundation")]


def check_agrees(g: games.Game, tally: dict[str, int]) -> None:
    """The plain search, without foundation cards coming back, finds a win only where the
    solver (which may bring them back) finds one too; every solver win replays; a solver
    "lost" is a plain "lost"."""
    plain = plain_search(g, limit=LIMIT, key=folded_key, children=forward_moves)
    if plain is None:  # too big for the plain search: not a case
        return
    sol = solver.solve(g, max_nodes=10**7)
    assert sol.result in ("won", "lost"), (g.cards, g.down)
    if plain == "won":
        assert sol.result == "won", (g.cards, g.down)
    if sol.result == "won":
        assert solver.replay_wins(g, sol.moves)
    tally[sol.result] += 1


@pytest.mark.parametrize("draw", [1, 3])
def test_klondike_unlimited_passes_agree_with_a_plain_search(draw):
    rnd = random.Random(17 + draw)
    tally = {"won": 0, "lost": 0}
    for _ in range(30):
        g = random_klondike(rnd, draw)
        if not g.won:
            check_agrees(g, tally)
    assert tally["won"] >= 20, tally  # (small random positions are nearly all won)


def test_canfield_whole_pile_agrees_with_a_plain_search():
    rnd = random.Random(5)
    tally = {"won": 0, "lost": 0}
    for _ in range(30):
        g = random_canfield(rnd)
        if not g.won:
            check_agrees(g, tally)
    assert tally["won"] >= 20, tally  # (small random positions are nearly all won)


def test_klondike_key_folds_turns_within_the_cycle_only():
    """Draw 3 over seven talon cards: waste sizes 0, 3, 6 and 7 are one position; a waste of
    five (a card was played from six) reaches more cards and stays apart."""
    g = searchable(games.new("klondike", 1, draw=3, redeals=-1))
    talon = "2C 3C 4C 5C 6C 7C 8C"
    keys = {}
    for split in range(8):
        cards = talon.split()
        arrange(g, {"W": " ".join(cards[:split]), "S": " ".join(reversed(cards[split:])),
                    "T1": "KH"}, {"S": 7 - split}, redeals=-1)
        keys[split] = g.solver_key()
    assert keys[0] == keys[3] == keys[6] == keys[7]
    assert len({keys[i] for i in (0, 1, 2, 4, 5)}) == 5
    assert RANK[0] == 1 and SUIT[0] == 0  # (the card codes the test assumes)
