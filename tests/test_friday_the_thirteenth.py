"""Friday the Thirteenth (000 #4): 13 foundations of four, started in order, one redeal."""

from __future__ import annotations

import random

import games
from games.engine import cards as C
from games.engine.rng import Rng
from games.search import searchable

from .conftest import arrange, refused

BASES = "J Q K A 2 3 4 5 6 7 8 9 10".split()


def test_deal_shape_and_layout():
    g = games.new("friday_the_thirteenth", 1)
    starts = [g.pile(f"F{i}") for i in range(1, 5)]
    assert [C.RANK[p[0]] for p in starts] == [11, 12, 13, 1] and all(len(p) == 1 for p in starts)
    assert all(g.pile(f"F{i}") == [] for i in range(5, 14))
    assert len(g.pile("S")) == 48 and g.down[g.index["S"]] == 48 and g.pile("W") == []
    assert [p.label for p in g.layout if p.role == "foundation"] == BASES
    assert len({p.y for p in g.layout if p.role == "foundation"}) == 2
    assert max(p.x for p in g.layout) + 1 <= 10.5


def test_the_first_jack_queen_king_and_ace_of_the_pack_are_taken():
    g = games.new("friday_the_thirteenth", 3)
    deck = list(range(52))
    Rng(3).shuffle(deck)
    pack = deck[::-1]  # the top of the shuffled pack first
    bases = [next(c for c in pack if C.RANK[c] == r) for r in (11, 12, 13, 1)]
    assert [g.pile(f)[0] for f in ("F1", "F2", "F3", "F4")] == bases
    # the rest keep their order: the stock's top card is the next card of the pack
    assert g.pile("S")[::-1] == [c for c in pack if c not in bases]


def test_build_up_regardless_of_suit_with_wrap_and_a_cap_of_four():
    g = arrange(games.new("friday_the_thirteenth", 1),
                {"F1": "JC", "F2": "QC", "F3": "KC", "F4": "AC", "W": "QD"})
    assert {g.notation(m) for m in g.legal_moves()} - {"redeal"} == {"W>F1"}
    g.play("W>F1")
    g = arrange(g, {"F1": "JC QD KH", "F2": "QC", "F3": "KC", "F4": "AC", "W": "AD"})
    assert {g.notation(m) for m in g.legal_moves()} - {"redeal"} == {"W>F1", "W>F3"}  # K→A
    g.play("W>F1")
    g = arrange(g, {"F1": "JC QD KH AD", "F2": "QC", "F3": "KC", "F4": "AC", "W": "2D"})
    refused(g, "W>F1", "at most 4 cards")
    refused(g, "W>F2", "can only go on an ace")


def test_new_foundations_start_left_to_right():
    g = arrange(games.new("friday_the_thirteenth", 1),
                {"F1": "JC", "F2": "QC", "F3": "KC", "F4": "AC", "W": "2D 3D"})
    refused(g, "W>F5", "Only a 2 can start this foundation")
    refused(g, "W>F6", "from left to right: the next empty slot takes a 2")
    g = arrange(g, {"F1": "JC", "F2": "QC", "F3": "KC", "F4": "AC", "W": "3D 2D"})
    assert "W>F5" in {g.notation(m) for m in g.legal_moves()}
    g.play("W>F5")
    g.play("W>F6")
    assert g.pile("F6") == [C.parse("3D")]
    g = arrange(g, {"F1": "JC", "F2": "QC", "F3": "KC", "F4": "AC", "F5": "2S", "W": "8D"})
    refused(g, "W>F11", "the next empty slot takes a 3")


def test_foundation_cards_never_move_and_only_one_redeal():
    g = arrange(games.new("friday_the_thirteenth", 1),
                {"F1": "JC QD", "F2": "QC", "F3": "KC", "F4": "AC", "S": "5D 9S"},
                {"S": 2}, redeals=1)
    refused(g, "F1>F2", "cannot be moved")
    g.play("deal")
    g.play("deal")
    refused(g, "deal", "stock is empty")
    g.play("redeal")
    assert [C.text(c) for c in g.pile("S")] == ["5D", "9S"] and g.pile("W") == []
    g.play("deal")
    g.play("deal")
    refused(g, "redeal", "No more redeals")
    assert g.over and not g.won


def test_win_and_undo_redo():
    ranks = "JQKA23456789T"
    suits = "CDHS"
    piles = {}
    for i, base in enumerate(ranks):
        start = "A23456789TJQK".index(base)
        piles[f"F{i + 1}"] = " ".join(
            "A23456789TJQK"[(start + k) % 13] + suits[(k + i) % 4] for k in range(4))
    last = piles["F13"].split()
    piles["F13"] = " ".join(last[:3])
    piles["W"] = last[3]
    g = arrange(games.new("friday_the_thirteenth", 1), piles)
    assert len({c for p in g.cards for c in p}) == 52
    before = g.key()
    g.play("W>F13")
    assert g.won and g.over and g.score == 52
    assert [C.RANK[g.cards[g.index[f"F{i}"]][-1]] for i in range(1, 14)] == list(range(1, 14))
    g.undo()
    assert g.key() == before
    g.redo()
    assert g.won


def _complete() -> dict[str, list[str]]:
    """The thirteen foundations of a won game, one card of each suit per rank."""
    piles: dict[str, list[str]] = {}
    used: dict[str, int] = {}  # per rank: how many suits given out
    for i, base in enumerate("JQKA23456789T"):
        start = "A23456789TJQK".index(base)
        piles[f"F{i + 1}"] = []
        for k in range(4):
            rank = "A23456789TJQK"[(start + k) % 13]
            piles[f"F{i + 1}"].append(rank + "CDHS"[used.get(rank, 0)])
            used[rank] = used.get(rank, 0) + 1
    return piles


def _endgame(rnd: random.Random, left: int, redeals: int) -> games.Game:
    """A random position near the end: ``left`` cards taken back off the tops of the
    foundations (slots emptied right to left only) and shuffled into the stock and waste."""
    piles = _complete()
    taken = []
    while len(taken) < left:
        i = rnd.randrange(13)
        pile = piles[f"F{i + 1}"]
        floor = 1 if i < 4 else 0
        if len(pile) > floor and (len(pile) > 1 or i == 12 or not piles[f"F{i + 2}"]):
            taken.append(pile.pop())
    rnd.shuffle(taken)
    cut = rnd.randrange(left + 1)
    layout = {k: " ".join(v) for k, v in piles.items()}
    layout["W"] = " ".join(taken[:cut])
    layout["S"] = " ".join(taken[cut:])
    return arrange(searchable(games.new("friday_the_thirteenth", 1)), layout, {"S": left - cut},
                   redeals=redeals)


def test_solver_keeps_back_a_playable_card_wanted_later():
    """Playing the waste card whenever it can be played is not safe: here the 5 on the waste
    fits the 3-4 foundation, but only a line that keeps it back for the 2 foundation wins
    (the stock turns 4, 5, 3, 6: the other 5 goes on 3-4, then 3, 4 and the kept 5 on the 2)."""
    from games import solver

    piles = _complete()
    five_a, four, three = piles["F5"].pop(), piles["F5"].pop(), piles["F5"].pop()
    six, five_b = piles["F6"].pop(), piles["F6"].pop()
    layout = {k: " ".join(v) for k, v in piles.items()}
    layout["W"] = five_b
    layout["S"] = " ".join((six, three, five_a, four))
    g = arrange(games.new("friday_the_thirteenth", 1), layout, {"S": 4}, redeals=0)
    sol = solver.solve(g, prune=False)
    assert sol.won and solver.replay_wins(g, sol.moves)
    assert sol.moves[0].kind == "deal"  # the 5 on the waste is kept back


def test_solver_playing_a_card_no_foundation_wants_later_loses_nothing(monkeypatch):
    """The complete search plays a waste card at once when no foundation will want its rank
    later: on random endgames it decides exactly as the search that may also keep it back."""
    from games import solver
    from games.search.friday_the_thirteenth import FridayTheThirteenthSearch

    rnd = random.Random(13)
    results = []
    for n in range(120):
        g = _endgame(rnd, 12 + n % 8, n % 2)
        with_rule = solver.solve(g, prune=False, max_nodes=200_000).result
        monkeypatch.setattr(FridayTheThirteenthSearch, "_later_ranks", lambda self: set(range(1, 14)))
        without = solver.solve(g, prune=False, max_nodes=200_000).result
        monkeypatch.undo()
        assert with_rule == without != "unknown", n
        results.append(with_rule)
    assert results.count("won") >= 20 and results.count("lost") >= 20
