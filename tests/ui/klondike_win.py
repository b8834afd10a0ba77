"""A Klondike deal laid out one tap from a win: the UI tests that need a won game (the win
sheet, the statistics page, the welcome's count, a synced play) reach it the same way, by a
visitor's tap on the table, so the win is played and logged as a visitor's would be."""

from __future__ import annotations

from tests.conftest import arrange


def win_by_one_tap(ui, ctl) -> None:
    """Lay out ``ctl``'s Klondike with every card on the foundations but the K♠ on T1, then
    tap it home."""
    piles = {f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789TJQK") for i, s in
             enumerate("CDH")}
    piles["F4"] = " ".join(f"{r}S" for r in "A23456789TJQ")
    piles["T1"] = "KS"
    ctl.set_game(arrange(ctl.game, piles))
    ui.frames(2)
    ui.tap(*ui.card_center("T1"))
