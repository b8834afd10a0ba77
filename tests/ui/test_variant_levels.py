"""The computer's level on the start sheet of every game against the computer: offered as
variants with no code of the game's own, chosen by a tap, set by the operator, and kept in
the play log's rows."""

from __future__ import annotations

import json

import games
from games.engine import cards as C
from games.engine.model import Move
from games.families.seats import SeatedGame
from kiosk.settings import config, variants

from .test_gin_offer_layoff import dealt_position


def test_every_seated_game_with_levels_gets_them_on_its_sheet_with_no_code_of_its_own():
    seated = [g for g in games.ids() if issubclass(games.game_class(g), SeatedGame)]
    assert {"gin_rummy", "draw_poker"} <= set(seated)
    for game_id in seated:
        level = next(o for o in games.game_class(game_id).options if o.name == "level")
        # a game whose sheet asks another question (Draw Poker's opponents) gets its
        # levels as a row beside it; the others get them as the sheet's variants
        named = variants.levels_beside(game_id) or variants.variants_of(game_id)
        assert [v.key for v in named] == list(level.choices)
        assert [v.options for v in named] == [{"level": lvl} for lvl in level.choices]
        for v in named:
            assert games.new(game_id, 1, **v.options).opts["level"] == v.key


def test_the_default_level_is_the_operators_choice_else_the_configured_level():
    plain = config.load_text("")
    assert variants.default(plain, "gin_rummy").key == "normal"  # the engine's default
    cfg = config.load_text('[games.gin_rummy]\nlevel = "easy"\n')
    assert variants.default(cfg, "gin_rummy").key == "easy"
    cfg = config.load_text('[games.gin_rummy]\noffer_variants = ["easy", "normal"]\n'
                           'default_variant = "easy"\n')
    assert cfg.problems == []
    assert variants.default(cfg, "gin_rummy").key == "easy"
    bad = config.load_text('[games.gin_rummy]\noffer_variants = ["hard"]\n')
    assert [v.key for v in variants.offered(bad, "gin_rummy")] == ["easy", "normal"]
    assert any("games.gin_rummy.offer_variants" in p for p in bad.problems)


def variants_sheet(ui, game_id: str):
    """The sheet a visitor meets on choosing ``game_id`` (it must be asked)."""
    ui.app.choose_game(game_id)
    ui.frames(2)
    assert ui.app.sm.current == "variants"
    return ui.app.variants


def test_a_visitor_chooses_easy_on_the_sheet_and_the_log_row_keeps_it(ui):
    app = ui.app
    sheet = variants_sheet(ui, "gin_rummy")
    assert list(sheet.buttons) == ["easy", "normal"] and sheet.default().key == "normal"
    assert "Easy" in sheet.buttons["easy"].text
    ui.tap_widget(sheet.buttons["easy"])
    assert app.sm.current == "gin"
    ctl = app.controller
    g = ctl.game
    assert g.opts["level"] == "easy"
    app.gin.turns.pause = 0.02
    try:
        dealt_position(g, "4H 5H 6H TC TD TS 3C 3D 3S AS KH", "7H 8H 2C 2D 2S JC JD JS KC 9D",
                       turn=0)
        assert ctl.play(Move("knock", extra=(C.parse("KH"),)), "touch") is None
        assert ui.until(lambda: g.phase == "done", 10)
    finally:
        app.gin.turns.pause = 0.9
    play = app.lobby.session.play
    assert json.loads(play.row["options"])["level"] == "easy"
    hand = play.hands[-1]
    assert hand["level"] == "easy" and hand["computer_version"] == g.computer_version


def test_one_level_offered_by_the_operator_deals_it_without_the_sheet(ui):
    app, cfg = ui.app, ui.app.cfg
    cfg.variant_offer["gin_rummy"] = ["easy"]
    cfg.variant_default["gin_rummy"] = "easy"
    try:
        app.choose_game("gin_rummy")
        ui.frames(2)
        assert app.sm.current == "gin" and app.controller.game.opts["level"] == "easy"
    finally:
        cfg.variant_offer.pop("gin_rummy", None)
        cfg.variant_default.pop("gin_rummy", None)


def test_draw_poker_asks_the_level_beside_the_opponents_and_deals_both(ui):
    app = ui.app
    sheet = variants_sheet(ui, "draw_poker")
    assert list(sheet.level_buttons) == ["easy", "normal"] and sheet.level == "normal"
    assert "1" in sheet.buttons and "7" in sheet.buttons
    ui.tap_widget(sheet.level_buttons["easy"])
    assert app.sm.current == "variants" and sheet.level == "easy"
    ui.tap_widget(sheet.buttons["2"])
    assert app.sm.current == "poker"
    opts = app.controller.game.opts
    assert opts["level"] == "easy" and opts["opponents"] == 2
