"""The Status page speaks the operator's language (issue 34): "Sync now" shows the pass's
progress and its outcome in place, a sync error is explained by its kind and never shown
as the server's words, rows set aside are counted, and the configuration's problems are
translated (``kiosk config check`` keeps printing them in English)."""

from __future__ import annotations

import pytest

from kiosk.fleet import state, status_panel
from kiosk.i18n import catalog, translate
from kiosk.settings.config import Fleet

from .operator_walk import ERROR_KINDS, RAW_ERROR, bad_config_problems


def _texts(widget) -> str:
    return "\n".join(str(w.text) for w in widget.walk() if hasattr(w, "text"))


@pytest.fixture
def fleet_page(ui, monkeypatch):
    """The Status page of a kiosk in a fleet whose "Sync now" starts nothing: the test
    plays the pass by writing its status file."""
    app = ui.app
    data_dir = app.cfg.existing_db_path().parent
    asked: list[object] = []
    monkeypatch.setattr(status_panel, "request_sync", lambda cfg, **_k: asked.append(cfg))
    app.cfg.fleet = Fleet(server="fleet.example.org", user="kiosk_lobby")
    (data_dir / state.STATUS_NAME).unlink(missing_ok=True)
    try:
        app.show_operator("status")
        ui.frames(2)
        yield app.operator, data_dir, asked
    finally:
        fleet = app.operator.pages["status"].fleet
        if fleet._tick is not None:
            fleet._tick.cancel()
            fleet._tick = None
        fleet.watch = fleet.outcome = None
        app.cfg.fleet = None
        (data_dir / state.STATUS_NAME).unlink(missing_ok=True)
        app.set_language("en")
        app.go_welcome()


def test_sync_now_shows_the_pass_and_its_outcome_without_leaving_the_page(ui, fleet_page):
    menu, data_dir, asked = fleet_page
    ui.tap_widget(menu.widgets["fleet_sync_now"])
    ui.frames(2)
    assert len(asked) == 1
    button = menu.widgets["fleet_sync_now"]
    assert button.text == "Syncing…" and button.disabled  # was "Sync started.", for good
    ui.tap_widget(button)
    assert len(asked) == 1  # one pass at a time
    ui.wait(1.2)
    assert menu.widgets["fleet_sync_now"].text == "Syncing…"  # nothing written yet
    # the pass ends: it writes its status file once
    state.save_status(data_dir, state.Status(last_ok="2025-03-04T10:11:12Z",
                                             last_attempt="2025-03-04T10:11:00Z",
                                             sent_plays=7))
    assert ui.until(lambda: "Sync done: 7 plays sent." in _texts(menu.panel), 4)
    assert menu.page == "status" and menu.widgets["fleet_sync_now"].text == "Sync now"
    assert "Last sync: 2025-03-04" in _texts(menu.panel)
    # a second pass fails: the failure shows in place too, in the operator's language,
    # as what to do about it, never as the server's words
    ui.app.set_language("ru")
    ui.frames(2)
    ui.tap_widget(menu.widgets["fleet_sync_now"])
    ui.frames(2)
    assert menu.widgets["fleet_sync_now"].text == catalog("ru")["Syncing…"]
    state.save_status(data_dir, state.Status(last_ok="2025-03-04T10:11:12Z",
                                             last_attempt="2025-03-04T11:00:00Z",
                                             last_error=RAW_ERROR, last_error_kind="auth"))
    ru = catalog("ru")
    assert ui.until(lambda: ru[status_panel.ADVICE["auth"]] in _texts(menu.panel), 4)
    shown = _texts(menu.panel)
    assert ru[status_panel.KEPT] in shown
    assert "password authentication" not in shown and "FATAL" not in shown
    assert menu.widgets["fleet_sync_now"].text == ru["Sync now"]


def test_a_pass_that_writes_nothing_is_not_waited_for_forever(ui, fleet_page, monkeypatch):
    menu, data_dir, _asked = fleet_page
    clock = [0.0]
    monkeypatch.setattr(status_panel.SyncWatch, "__init__", _watch_with(clock))
    ui.tap_widget(menu.widgets["fleet_sync_now"])
    ui.frames(2)
    clock[0] = status_panel.WATCH_SECONDS + 1
    assert ui.until(lambda: "No result after 16 minutes" in _texts(menu.panel), 4)
    assert menu.widgets["fleet_sync_now"].text == "Sync now"


def _watch_with(clock):
    real = status_panel.SyncWatch.__init__

    def init(self, data_dir, child, clock_=None):
        real(self, data_dir, child, clock=lambda: clock[0])
    return init


@pytest.mark.parametrize("lang", ["zh", "en", "ru"])
def test_every_kind_of_sync_error_says_what_to_do_in_the_operators_language(ui, fleet_page,
                                                                          lang):
    menu, data_dir, _asked = fleet_page
    ui.app.set_language(lang)
    cat = catalog(lang)
    for kind in ERROR_KINDS:
        state.save_status(data_dir, state.Status(last_error=RAW_ERROR, last_error_kind=kind,
                                                 last_attempt="2025-03-04T11:00:00Z",
                                                 set_aside=3))
        menu.rebuild()
        shown = _texts(menu.panel)
        advice = cat[status_panel.advice(kind)].split("{now}")[0]
        assert advice in shown, (lang, kind)
        assert cat[status_panel.KEPT] in shown, (lang, kind)
        assert RAW_ERROR not in shown and "FATAL" not in shown, (lang, kind)
        set_aside = ui.app.trn("The central database refused {n} row. It is kept on this "
                               "kiosk for the office to look at; everything else was sent.",
                               "The central database refused {n} rows. They are kept on "
                               "this kiosk for the office to look at; everything else was "
                               "sent.", 3)
        assert set_aside in shown, (lang, kind)
    if lang == "zh":  # the page's own punctuation is Chinese: no "确定: "
        state.save_status(data_dir, state.Status(last_ok="2025-03-04T10:11:12Z"))
        menu.rebuild()
        shown = _texts(menu.panel)
        assert "确定" not in shown and "上次同步：" in shown and "待发送：" in shown
        assert ui.app.tr("{state}: {text}", state="受限", text="x") == "受限：x"
        assert ui.app.tr("{what}: {why}", what="无法关机", why="x") == "无法关机：x"


def test_configuration_problems_are_shown_in_the_operators_language(ui, monkeypatch):
    app = ui.app
    problems = bad_config_problems()
    assert len(problems) >= 10
    monkeypatch.setattr(app, "config_problems", lambda: problems)
    try:
        for lang in ("zh", "ru"):
            app.set_language(lang)
            app.show_operator("status")
            ui.frames(2)
            shown = _texts(app.operator.panel)
            for problem in problems:
                line = translate(problem.reason, lang)
                assert line != str(problem) and "• " + line in shown, (lang, problem)
                assert str(problem) not in shown
            assert "unknown key; ignored" not in shown
    finally:
        app.set_language("en")
        app.go_welcome()
