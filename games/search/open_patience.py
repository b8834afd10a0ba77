"""What the search knows of the open building games (games/open_patience.py): columns and
reserve places are interchangeable, so the key sorts them and one empty pile of a kind
stands for all; the moves are tried in the guided order.
"""

from __future__ import annotations

from ..engine.model import Move
from ..families.open_patience import OpenPatience
from . import searches
from .patience import PatienceSearch
from .rules import OpenPatienceRules


@searches(OpenPatience)
class OpenPatienceSearch(PatienceSearch, OpenPatienceRules):
    """What the search knows of OpenPatience."""

    #: the search tries first the moves that bring the next foundation cards nearer
    SOLVER_GUIDED = True

    def symmetric_groups(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.tableau), tuple(self.roles.get("cell", ())), tuple(self.foundations)

    def solver_key(self) -> bytes:
        """Columns and reserve places as sorted sets; a foundation is known by its top card
        (it is built in suit from the ace)."""
        cards = self.cards
        tops = sorted(cards[f][-1] if cards[f] else 255 for f in self.foundations)
        cells = sorted(cards[c][-1] for c in self.roles.get("cell", ()) if cards[c])
        columns = b"\xff".join(sorted(bytes(cards[t]) for t in self.tableau))
        return columns + b"\xfe" + bytes(cells) + b"\xfe" + bytes(tops)

    def solver_moves(self, prune: bool = False) -> list[Move]:
        """One empty pile of a kind stands for all of them: they are interchangeable."""
        cards, role = self.cards, self._role
        seen: set[tuple[int, str]] = set()
        kept = []
        for m in super().solver_moves(prune):
            if m.kind == "move" and not cards[m.dst]:
                if (m.src, role[m.dst]) in seen:
                    continue
                seen.add((m.src, role[m.dst]))
            kept.append(m)
        return kept
