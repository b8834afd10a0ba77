"""A game's grade after the end is said in the visitor's language: Clock's "11 of 13
groups" was English text built in the engine, shown as such in Chinese and Russian."""

from __future__ import annotations

import games

from ..conftest import arrange

HOURS = "A23456789TJQ"


def clock_over_with_eleven_groups() -> games.Game:
    """Every hour complete but 2 and 5; the last face-down card goes to a finished pile."""
    piles = {f"T{h + 1}": " ".join(HOURS[h] + s for s in "CDHS")
             for h in range(12) if h + 1 not in (2, 5)}
    g = arrange(games.new("clock", 1),
                {**piles, "T2": "5H 2C 2D 2H", "T5": "5C 5D 5S", "T13": "KS KC KD KH"},
                {"T2": 1, "T13": 1}, at=1)
    g.play("turn:T2")
    assert g.over and not g.won
    return g


def test_clocks_grade_is_translated_on_the_table(ui):
    for lang, words in (("zh", "完成11组（共13组）"), ("ru", "11 из 13 групп"),
                        ("en", "11 of 13 groups")):
        ui.reset(lang)
        ui.app.open_position(clock_over_with_eleven_groups())
        ui.frames(2)
        status = ui.table.status.text
        assert words in status, (lang, status)
        if lang != "en":
            assert "groups" not in status, (lang, status)
