"""The table's logic without a window: controller, tap/drop resolution, geometry, i18n."""

from __future__ import annotations

import pytest

import games
from games import Move
from games.engine.reason import Reason
from kiosk.i18n import LANGUAGES, Translator, catalog, normalize
from kiosk.platform.boot import decide_screen, input_providers, is_pi
from kiosk.table.controller import TableController
from kiosk.table.geometry import TableGeometry
from kiosk.table.touch import Interaction, piles_of
from tests.conftest import arrange


def klondike_controller(**kw) -> TableController:
    return TableController("klondike", 4711, autoplay=False, clock=iter(range(0, 10_000, 5))
                           .__next__, **kw)


def test_tap_plays_best_move_once():
    ctl = klondike_controller()
    g = arrange(ctl.game, {"T1": "KS", "T2": "QH", "F1": "AS", "T3": "2S"})
    ctl.set_game(g)
    seen = []
    ctl.bind(on_move=lambda m, s: seen.append((m, s)))
    ia = Interaction(ctl)
    t3 = g.index["T3"]
    r = ia.tap(t3, 0)
    assert r.outcome == "played" and r.move.dst == g.index["F1"]  # foundation first
    assert seen == [(Move("move", t3, g.index["F1"], 1), "tap")]
    r = ia.tap(g.index["T2"], 0)
    assert r.move == Move("move", g.index["T2"], g.index["T1"], 1)
    assert len(g.history) == 2


def test_tap_again_tries_next_place():
    ctl = klondike_controller()
    g = arrange(ctl.game, {"T1": "4D 7C", "T2": "8H", "T3": "8D", "S": "2C"}, down={"T1": 1})
    ctl.set_game(g)
    ia = Interaction(ctl)
    first = ia.tap(g.index["T1"], 1).move
    assert first.dst == g.index["T2"]
    second = ia.tap(first.dst, 1).move
    assert second == Move("move", g.index["T2"], g.index["T3"], 1)


def test_tap_on_stock_deals_and_reason_when_empty():
    ctl = klondike_controller()
    ia = Interaction(ctl)
    s = ctl.game.index["S"]
    assert ia.tap(s, len(ctl.game.cards[s]) - 1).move == Move("deal")
    g = arrange(ctl.game, {"T1": "KS", "W": "2H"})
    ctl.set_game(g)
    r = ia.tap(s, -1)
    assert r.outcome == "refused" and str(r.reason) == "The stock is empty."


def test_refused_tap_gives_engine_reason():
    ctl = klondike_controller()
    g = arrange(ctl.game, {"T1": "5H", "T2": "9C"}, down={"T2": 0})
    ctl.set_game(g)
    r = Interaction(ctl).tap(g.index["T1"], 0)
    assert r.outcome == "refused" and str(r.reason).endswith(".")


GOLF_REASON = {
    "en": "Only cards one rank higher or lower can go on the discard pile.",
    "zh": "只有大一点或小一点的牌才能放到弃牌堆上。",
    "ru": "На сброс можно положить только карту на одно достоинство выше или ниже.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_golf_tap_on_a_card_that_does_not_fit_gives_the_engines_reason(lang):
    """Golf has no foundation: the tap asks about the discard pile, where the card would go
    (it used to probe a foundation, and said "Cards can only go onto the discard pile")."""
    ctl = TableController("golf", 7, autoplay=False)
    g = arrange(ctl.game, {"W": "9S", "T1": "4H", "T2": "TD", "S": "2C"})
    ctl.set_game(g)
    r = Interaction(ctl).tap(g.index["T1"], 0)
    assert r.outcome == "refused"
    assert r.reason == g.why_illegal(Move("move", g.index["T1"], g.index["W"]))
    assert Translator(lang).reason(r.reason) == GOLF_REASON[lang]
    assert Interaction(ctl).tap(g.index["T2"], 0).outcome == "played"  # 10 on 9 still plays


def test_aces_up_tap_says_why_the_card_cannot_be_discarded():
    ctl = TableController("aces_up", 7, autoplay=False)
    g = arrange(ctl.game, {"T1": "5H", "T2": "9S", "T3": "KC", "T4": "2D", "S": "3C"})
    ctl.set_game(g)
    r = Interaction(ctl).tap(g.index["T1"], 0)
    assert str(r.reason) == ("The 5♥ can be discarded only when a higher heart is on top of "
                             "another pile.")
    assert Translator("ru").reason(r.reason).startswith("5♥ можно сбросить")


def test_plural_forms_follow_the_catalogs():
    one, many = "{n} card game", "{n} card games"
    assert [Translator("ru").ngettext(one, many, n) for n in (1, 3, 5, 21)] == [
        "1 карточная игра", "3 карточные игры", "5 карточных игр", "21 карточная игра"]
    assert Translator("en").ngettext(one, many, 1) == "1 card game"
    assert Translator("en").ngettext(one, many, 43) == "43 card games"
    assert Translator("zh").ngettext(one, many, 43) == "43 种纸牌游戏"


def test_drop_legal_and_illegal():
    ctl = klondike_controller()
    g = arrange(ctl.game, {"T1": "8S", "T2": "9H", "T3": "9S"})
    ctl.set_game(g)
    ia = Interaction(ctl)
    t1, t2, t3 = (g.index[p] for p in ("T1", "T2", "T3"))
    assert set(ia.drag_targets(t1, 0)) == {t2}
    r = ia.drop(t1, 0, t3)
    assert r.outcome == "refused" and "8" in str(r.reason)
    assert ia.drop(t1, 0, t2).outcome == "played"
    assert g.cards[t2] == [games.engine.cards.parse("9H"), games.engine.cards.parse("8S")]


def test_undo_takes_back_autoplay_with_the_move():
    ctl = TableController("klondike", 4711, autoplay=True)
    g = arrange(ctl.game, {"T1": "AS", "T2": "2S", "T3": "KH"})
    ctl.set_game(g)
    assert ctl.play(Move("move", g.index["T1"], g.index["F1"], 1)) is None
    assert ctl.autoplay_step() is not None  # 2S follows by itself
    assert ctl.moves == 2
    assert ctl.undo()
    assert ctl.moves == 0


def test_events_and_timer():
    ticks = iter([10.0, 15.0, 40.0, 41.0])
    ctl = TableController("klondike", 1, autoplay=False, clock=lambda: next(ticks))
    got = []
    ctl.bind(on_new_deal=lambda *a: got.append("deal"), on_undo=lambda *a: got.append("undo"),
             on_leave=lambda *a: got.append("leave"))
    assert ctl.elapsed() == 0
    ctl.play(ctl.legal_moves()[0])           # clock starts at 10
    assert ctl.elapsed() == 5
    ctl.undo()
    ctl.leave()                               # stops at 40
    ctl.new_deal(99)
    assert got == ["undo", "leave", "deal"] and ctl.seed == 99


def test_generic_selection_completes_two_pile_move(monkeypatch):
    ctl = klondike_controller()
    g = ctl.game
    a, b, c = g.index["T1"], g.index["T2"], g.index["T3"]
    moves = [Move("remove", a, b), Move("remove", a, c), Move("close_up")]
    monkeypatch.setattr(ctl, "legal_moves", lambda: moves)
    played = []
    monkeypatch.setattr(ctl, "play", lambda m, s="tap", **k: played.append(m))
    ia = Interaction(ctl)
    r = ia.tap(a, len(g.cards[a]) - 1)
    assert r.outcome == "selected" and r.highlight == {b, c}
    r = ia.tap(c, len(g.cards[c]) - 1)
    assert r.outcome == "played" and played == [Move("remove", a, c)]
    # the only move involving b fires at once
    played.clear()
    assert ia.tap(b, 0).outcome == "played" and played == [Move("remove", a, b)]
    assert piles_of(Move("jump", 3, 1, 1, (5,))) == {1, 3, 5}


def test_actions_are_pileless_moves():
    ctl = klondike_controller()
    assert ctl.actions() == []  # the deal is the stock's tap
    g = arrange(ctl.game, {"W": "2H 3H"}, redeals=1)
    ctl.set_game(g)
    assert ctl.actions() == [Move("redeal")]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (720, 1280), (480, 800)])
def test_geometry_keeps_long_fans_inside(size):
    g = games.new("klondike", 3)
    geom = TableGeometry(g.layout, 0, 0, *size)
    for i, spec in enumerate(g.layout):
        for n in (1, 13, 30, 52):
            for r in geom.card_rects(i, n, down=n // 2):
                assert r.inside(geom.area), (spec.id, n, r, geom.area)
    assert geom.card_w > 40


def test_catalogs_and_fallback():
    t = Translator("ru")
    assert t("Undo") == catalog("ru")["Undo"] != "Undo"
    assert t("not a known text") == "not a known text"
    assert t("Deal {seed}", seed=5).endswith("5")
    assert normalize("zh_CN") == "zh" and normalize("de") == "en"


def test_every_language_translates_every_message():
    english = catalog("en")
    for lang in LANGUAGES:
        cat = catalog(lang)
        assert set(cat) == set(english), lang
        assert all(cat.values()), [k for k, v in cat.items() if not v]
        for key, value in cat.items():  # same {fields} in every translation
            assert sorted(_fields(key)) == sorted(_fields(value)), (lang, key)


def test_every_text_the_kiosk_marks_is_in_the_catalogs():
    """A msgid written in kiosk/ (``tr(...)``, ``_(...)``) that no catalog holds would show
    in English to every visitor: tools/messages.py finds them, the catalogs must hold each
    (the engine's reasons have their own catalog, tests/lobby/test_reasons.py)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tools.messages import extracted, reason_msgids

    known = set(catalog("en")) | reason_msgids()
    missing = sorted({f"{path}:{line}: {msgid}" for msgid, path, line in extracted(("kiosk",))
                      if msgid not in known and not msgid.startswith("{")})
    assert not missing, missing[:10]


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def test_one_input_path_per_machine(tmp_path):
    pi = input_providers(touchscreen=True)
    assert list(pi.values()) == ["probesysfs,provider=hidinput"]
    assert "mouse" not in pi
    assert list(input_providers(touchscreen=False)) == ["mouse"]
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert is_pi(str(model)) and not is_pi(str(tmp_path / "none"))
    assert decide_screen((1280, 720), portrait=True, fullscreen=False).width == 720


def test_a_broken_catalog_shows_english_and_says_which(tmp_path, monkeypatch, caplog):
    from kiosk import i18n

    bad = tmp_path / "ru" / "LC_MESSAGES"
    bad.mkdir(parents=True)
    (bad / "kiosk.po").write_text('garbage\nmsgid "Undo"\nmsgstr "Ход назад"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_translations", {})
    monkeypatch.setattr(i18n, "_texts", {})
    monkeypatch.setattr(i18n, "_all", {})
    t = Translator("ru")
    assert t("Undo") == "Undo"
    assert t.ngettext("Undo {n} move", "Undo {n} moves", 3) == "Undo 3 moves"
    assert "kiosk translations for ru not loaded" in caplog.text
    assert t.reason(Reason("The stock is empty.")) == "The stock is empty."  # no reasons.po
