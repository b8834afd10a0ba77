"""Maze (000 #26)."""

from __future__ import annotations

import games
from games.engine.cards import RANK, parse

from .conftest import arrange, assert_undo_then_redo, refused

SOLVED = [r + s for s in "HSDC" for r in "A23456789TJQ"]


def maze(cells: list[str], **options) -> games.Game:
    """A position from 54 cells in reading order, ``--`` for a gap; the kings are discarded."""
    assert len(cells) == 54
    piles = {f"G{i + 1}": c for i, c in enumerate(cells) if c != "--"}
    piles["D"] = "KC KD KH KS"
    return arrange(games.new("maze", 1, **options), piles)


def with_gaps(run: list[str], gaps: list[int]) -> list[str]:
    """Lay ``run`` out in reading order, skipping the cells numbered in ``gaps`` (from 0);
    cells left over at the end are gaps too."""
    cards = iter(run)
    return ["--" if i in gaps else next(cards, "--") for i in range(54)]


def gid(cells: list[str], card: str) -> str:
    return f"G{cells.index(card) + 1}"


def test_deal_shape():
    g = games.new("maze", 12)
    assert sorted(RANK[c] for c in g.pile("D")) == [13] * 4
    gaps = [i for i in range(1, 55) if not g.pile(f"G{i}")]
    assert len(gaps) == 6 and 9 in gaps and 18 in gaps
    assert not any(g.down)
    assert sum(len(p) for p in g.cards) == 52
    assert max(p.x for p in g.layout) + 1 <= 10.5
    assert max(p.y for p in g.layout) + 1.4 <= 6.5


def test_after_the_lower_or_before_the_higher_card_of_the_suit():
    cells = with_gaps(SOLVED, [1, 30, 40, 50, 51, 52])
    cells[2], cells[20] = cells[20], cells[2]  # the gap at G2 lies between A♥ and 8♠
    g = maze(cells)
    assert {g.notation(m) for m in g.legal_moves() if m.dst == g.index["G2"]} == {
        f"{gid(cells, '2H')}>G2", f"{gid(cells, '7S')}>G2"}
    refused(g, f"{gid(cells, '4H')}>G2", "takes only the 2♥ or the 7♠, not the 4♥")
    g.play(f"{gid(cells, '2H')}>G2")
    assert g.pile("G2") == [parse("2H")]


def test_the_ring_joins_the_last_cell_to_the_first():
    cells = with_gaps(SOLVED, [0, 10, 20, 30, 40, 50])
    assert cells[53] == "QC" and cells[1] == "AH"
    g = maze(cells)
    # the gap at G1 follows the Q♣ in G54: any ace may go there
    assert {g.notation(m) for m in g.legal_moves() if m.dst == g.index["G1"]} == {
        gid(cells, a) + ">G1" for a in ("AH", "AS", "AD", "AC")}


def test_any_ace_after_a_queen_and_nothing_before_an_ace():
    cells = with_gaps(SOLVED, [12, 13, 30, 40, 50, 53])
    assert cells[11] == "QH" and cells[14] == "AS"
    cells[20], cells[21] = cells[21], cells[20]  # not won yet
    g = maze(cells)
    legal = {g.notation(m) for m in g.legal_moves()}
    assert {gid(cells, a) + ">G13" for a in ("AH", "AS", "AD", "AC")} <= legal
    assert not any(m.endswith(">G14") for m in legal)
    refused(g, f"{gid(cells, 'AD')}>G14", "Nothing can go just before an ace")


def test_gap_between_gaps_and_other_refusals():
    cells = with_gaps(SOLVED, [5, 6, 7, 30, 40, 50])
    cells[20], cells[21] = cells[21], cells[20]  # not won yet
    g = maze(cells)
    refused(g, "G1>G7", "gaps on both sides")
    refused(g, "G1>G2", "only go into a gap")
    refused(g, "G6>G7", "no card there")
    refused(g, "deal", "one card at a time")
    refused(g, "D>G6", "between the places")


def test_win_cyclic_and_strict_start():
    run = SOLVED[6:] + SOLVED[:6]  # the hearts wrap from the bottom row round to the top
    gaps = [10, 20, 30, 40, 51, 53]
    cells = with_gaps(run, gaps)
    assert maze(cells).won and maze(cells).score == 48
    assert not maze(cells, strict_start=True).won
    assert maze(with_gaps(SOLVED, gaps), strict_start=True).won
    # gaps before the first card do not matter
    assert maze(with_gaps(SOLVED, [0, 1, 2, 3, 4, 5]), strict_start=True).won


def test_last_move_wins_and_undo_redo():
    cells = with_gaps([c for c in SOLVED if c != "4H"], [3, 20, 30, 40, 50])
    cells[53] = "4H"  # the 4♥ wandered to the end
    g = maze(cells)
    assert not g.won and g.score == 45
    start = g.key()
    g.play("G54>G4")
    assert g.won and g.over and g.score == 48
    assert_undo_then_redo(g, start)
