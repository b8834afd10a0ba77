"""The tables a visitor left (kiosk/table/kept.py), without Kivy: one shelf per game and
variant, whatever is played meanwhile; an untouched deal keeps nothing and pushes nothing
out; the longest left goes first past the limit; the end of the visit forgets them all."""

from __future__ import annotations

from kiosk.table.controller import TableController
from kiosk.table.kept import KEPT_TABLES, KeptTables


def played(game_id: str, seed: int = 7, **options) -> TableController:
    ctl = TableController(game_id, seed, options, autoplay=False)
    assert ctl.play(ctl.legal_moves()[0], "tap") is None
    return ctl


def test_a_left_table_waits_for_its_game_whatever_is_played_meanwhile():
    kept = KeptTables()
    gin = played("gin_rummy", level="normal")
    kept.left(gin)
    poker = played("draw_poker", opponents=3)
    kept.sat(poker)  # another game: Gin stays kept
    kept.left(poker)
    assert kept.games == [("gin_rummy", "[('level', 'normal')]"),
                          ("draw_poker", "[('opponents', 3)]")]
    again = TableController("gin_rummy", 9, {"level": "normal"}, autoplay=False)
    kept.sat(again)
    assert again.shelf_top is gin.game and [g for g, _o in kept.games] == ["draw_poker"]


def test_a_variant_is_a_table_of_its_own_and_an_untouched_deal_keeps_nothing():
    kept = KeptTables()
    normal = played("gin_rummy", level="normal")
    kept.left(normal)
    easy = TableController("gin_rummy", 3, {"level": "easy"}, autoplay=False)
    kept.sat(easy)
    assert easy.shelf_top is None
    kept.left(easy)  # nothing played: nothing kept, the normal match not pushed out
    assert kept.games == [("gin_rummy", "[('level', 'normal')]")]


def test_the_longest_left_goes_first_and_the_end_of_the_visit_forgets_all():
    kept = KeptTables()
    tables = [played(g) for g in ("klondike", "golf", "pyramid", "canfield", "clock",
                                  "scorpion", "accordion")]
    assert len(tables) == KEPT_TABLES + 1
    for ctl in tables:
        kept.left(ctl)
    assert [g for g, _o in kept.games] == ["golf", "pyramid", "canfield", "clock",
                                           "scorpion", "accordion"]
    kept.left(tables[1])  # left again: now the most recent
    assert kept.games[-1][0] == "golf"
    kept.forget()
    assert kept.games == []
    fresh = TableController("golf", 1, autoplay=False)
    kept.sat(fresh)
    assert fresh.shelf_top is None
