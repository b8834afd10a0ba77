"""How the Gin Rummy table lays a hand out: in melds (each with its band) then deadwood,
while a hand is played, at the lay-off and at the hand's end.

Why apart from the screen: which card goes where is read from the rules (the meld search
of :mod:`games.families.melds`, the knocker's melds as they lie); kept without Kivy, it is
tested directly and the screen only hands a :class:`Row` to a
:class:`~kiosk.table.hand_fan.HandFan`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import cards as C
from games.families.gin_records import HandResult
from games.families.melds import arrange


@dataclass(frozen=True)
class Row:
    """A hand as the table lays it out: ``order`` (melds first, then deadwood), the sizes of
    the groups shown apart (``groups``), each meld card's meld number (``bands``) and the
    cards raised as deadwood once a hand is shown (``marked``)."""

    order: list[int]
    groups: list[int]
    bands: dict[int, int]
    marked: set[int] = field(default_factory=set)

    def show_on(self, fan: Any, **kw: Any) -> None:
        fan.show(self.order, marked=self.marked, groups=self.groups, bands=self.bands, **kw)


def by_rank(cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=lambda c: (C.RANK[c], C.SUIT[c]))


def in_melds(melds: Sequence[Sequence[int]], dead: Sequence[int], raise_dead: bool) -> Row:
    """``melds`` each together (by rank), then ``dead``; deadwood raised when shown."""
    order = [c for m in melds for c in by_rank(m)] + list(dead)
    return Row(order, [len(m) for m in melds], {c: k for k, m in enumerate(melds) for c in m},
               set(dead) if raise_dead else set())


def _meld_key(meld: Sequence[int]) -> tuple[int, int]:
    return min(C.RANK[c] for c in meld), min(C.SUIT[c] for c in meld)


def arranged(hand: Sequence[int]) -> Row:
    """The hand in a least-deadwood arrangement: each meld together (a run by rank, a set by
    suit), the melds from low to high, then the deadwood from low to high, so the highest
    card in no meld, the one a newcomer should throw away first, is at the right end."""
    melds, dead = arrange(hand)
    melds = sorted(melds, key=_meld_key)
    row = in_melds(melds, by_rank(dead), raise_dead=False)
    groups = row.groups + ([len(dead)] if dead and melds else [])
    return Row(row.order, groups, row.bands)


def in_order(hand: Sequence[int], chosen: Sequence[int]) -> list[int]:
    """The hand in the order the visitor dragged it to (``chosen``); a card that came
    since goes at the right end, where a person puts a card just drawn."""
    held = set(hand)
    kept = [c for c in chosen if c in held]
    return kept + [c for c in arranged(hand).order if c not in kept]


def hand_end_rows(result: HandResult) -> tuple[Row, Row]:
    """Both hands at a hand's end (the visitor's, the computer's): melds then deadwood
    (raised); a defender's lay-offs sit in the knocker's row inside the meld they extend."""
    laid = {c for c, _i in result.laid_off}
    rows = []
    for seat in (0, 1):
        melds = [list(m) for m in result.melds[seat]]
        if seat == result.knocker:
            for card, where in result.laid_off:
                if 0 <= where < len(melds):
                    melds[where].append(card)
        else:
            melds = [[c for c in m if c not in laid] for m in melds]
        rows.append(in_melds(melds, [c for c in result.dead[seat] if c not in laid], True))
    return rows[0], rows[1]


def knocker_row(lying: Sequence[Sequence[int]], hand: Sequence[int]) -> Row:
    """The knocker's hand while the other lays off: its melds as they lie now (with what
    was laid off on them), then its deadwood, raised, by suit."""
    in_a_meld = {c for m in lying for c in m}
    dead = sorted((c for c in hand if c not in in_a_meld), key=lambda c: (C.SUIT[c], C.RANK[c]))
    return in_melds(lying, dead, raise_dead=True)
