"""The operator's screens get the visitor's text-fit check: the PIN pad and every page of the
menu, in each state it can show, in zh, en and ru at 800x480 and 720x1280. Besides
:func:`label_problems` (no text bigger than its box, none cut), no name on the Games and
Statistics pages is shortened with "…", nothing outside a list sticks out of the page's
panel (the Russian Export page's first line lay above it, against the header), and every
button is a 48 px target with a gap to its neighbours."""

from __future__ import annotations

import pytest
from kivy.clock import Clock
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

import games
from kiosk.records import stats
from kiosk.screens.text_fit import ELLIPSIS, TOUCH_GAP, TOUCH_PX
from kiosk.settings.tables import table_can_play
from tests.ui.test_text_fit import LANGS, SIZES, _in_scroll, label_problems


def _settle(ui) -> None:
    for _ in range(3):
        Clock.tick_draw()
    ui.frames(2)


def _rect(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    return x0, y0, x0 + w.width, y0 + w.height


def _visible(w) -> bool:
    p, seen = w, set()
    while p is not None and id(p) not in seen:
        if p.opacity == 0:
            return False
        seen.add(id(p))
        p = p.parent
    return w.width > 1 and w.height > 1


def layout_problems(root, panel, where: str, u: float, *, names: bool) -> list[str]:
    """Buttons smaller than a finger or touching a neighbour; widgets outside a list that
    stick out of ``panel``; with ``names``, labels shortened with an ellipsis."""
    out: list[str] = []
    px0, py0, px1, py1 = _rect(panel) if panel is not None else (0, 0, 1e9, 1e9)
    buttons = []
    for w in root.walk(restrict=True):
        if not _visible(w):
            continue
        text = str(getattr(w, "text", ""))[:30]
        if isinstance(w, ButtonBehavior):
            if w.height < TOUCH_PX * u - 0.5 or w.width < TOUCH_PX * u - 0.5:
                out.append(f"{where}: button {text!r} {w.width:.0f}x{w.height:.0f} is "
                           f"smaller than {TOUCH_PX * u:.0f} px")
            buttons.append(w)
        if panel is not None and w is not panel and _is_under(w, panel) and not _in_scroll(w):
            x0, y0, x1, y1 = _rect(w)
            if x0 < px0 - 1 or y0 < py0 - 1 or x1 > px1 + 1 or y1 > py1 + 1:
                out.append(f"{where}: {type(w).__name__} {text!r} ({x0:.0f},{y0:.0f})-"
                           f"({x1:.0f},{y1:.0f}) outside the panel ({px0:.0f},{py0:.0f})-"
                           f"({px1:.0f},{py1:.0f})")
        if names and isinstance(w, Label) and str(w.text).strip():
            w.texture_update()
            laid = "".join(word.text for line in (w._label._cached_lines or [])
                           for word in line.words)
            if ELLIPSIS in laid and ELLIPSIS not in str(w.text):
                out.append(f"{where}: {type(w).__name__} {text!r} shortened to {laid!r}")
    gap = TOUCH_GAP * u
    for k, a in enumerate(buttons):
        ax0, ay0, ax1, ay1 = _rect(a)
        for b in buttons[k + 1:]:
            bx0, by0, bx1, by1 = _rect(b)
            if ax0 < bx1 + gap - 0.5 and bx0 < ax1 + gap - 0.5 and \
                    ay0 < by1 + gap - 0.5 and by0 < ay1 + gap - 0.5:
                out.append(f"{where}: buttons {str(a.text)[:20]!r} and {str(b.text)[:20]!r} "
                           f"are less than {gap:.0f} px apart")
    return out


def _is_under(w, root) -> bool:
    p, seen = w.parent, set()
    while p is not None and id(p) not in seen:
        if p is root:
            return True
        seen.add(id(p))
        p = p.parent
    return False


def _statistics() -> dict:
    """Figures for every game the table plays, and all three games against the computer at
    both levels, so every name and every line of the page is laid out."""
    played = {"plays": 12, "wins": 5, "win_rate": 0.4167, "median_time": 3725.0,
              "median_win_time": 200.0}
    every = [g for g in games.ids() if table_can_play(g)]
    seated = {}
    for game in ("draw_poker", "gin_rummy", "follow_the_rules"):
        for level in ("easy", "normal"):
            e = {"game": game, "level": level, "matches": 14, "matches_won": 6,
                 "hands": 230, "hands_won": 101, "hands_lost": 99, "hands_drawn": 30}
            if stats.starting_chips(game) is not None:
                e.update(chips_won=12345, chips_lost=23456)
            seated[f"{game} ({level})"] = e
    return {"today": "2025-03-04", "clock_synced": False,
            "games": {g: {"all": played, "today": played} for g in every},
            "total": {"all": played, "today": played},
            "solitaires": {"all": played, "today": played},
            "against_computer": seated, "against_computer_today": seated}


def _operator_states(ui, monkeypatch=None):
    """Every state the menu can show, as (name, set-up); each set-up leaves the screen on."""
    app = ui.app
    menu = app.operator

    def page(name, **state):
        def show():
            app.show_operator(name)
            for key, value in state.items():
                setattr(menu.pages[name], key, value)
            menu.rebuild()
        return show

    def export_state(**st):
        def show():
            app.show_operator("export")
            menu.pages["export"].state.update(st)
            menu.rebuild()
        return show

    def armed():
        app.show_operator("system")
        menu.pages["system"].system_action("reboot")
        menu.pages["system"].note = app.tr("Could not shut down") + ": Access denied"
        menu.rebuild()

    def games_note():
        app.show_operator("games")
        menu.pages["games"].note = app.tr("Not saved ({reason}); the change lasts until the "
                                          "app restarts.",
                                          reason="cannot write /etc/x.toml: read-only")
        menu.rebuild()

    def long_paths():
        # CI's temporary directory (/tmp/pytest-of-root/pytest-306/popen-gw1/...) once made
        # Kivy's space-only wrapping cut "config.toml" into "con / fig": a path is always
        # longer than the portrait screen here, whatever the temporary directory
        deep = "/var/lib/solitaire-kiosk-test-fixture/" + "lobby-configuration/" * 4
        path = deep + "config.toml"
        old_path, old_problems = app.cfg.path, app.config_problems
        app.cfg.path = type(old_path)(path) if old_path is not None else path
        app.config_problems = lambda: [f"{path}: lobby.idle_seconds must be a number"]
        try:
            page("status")()
        finally:
            app.cfg.path, app.config_problems = old_path, old_problems

    update_states = []
    if monkeypatch is not None:
        from tests.ui.update_states import update_page_states
        update_states = update_page_states(ui, monkeypatch)

    return [
        ("stats today", page("stats", scope="today")),
        ("stats all", page("stats", scope="all")),
        ("status", page("status")),
        ("status long paths", long_paths),
        ("export", export_state(running=False, line="", result="", error=False)),
        ("export running", export_state(running=True, line=app.trn(
            "Writing… {done} of {n} row", "Writing… {done} of {n} rows", 12345, done=678),
            result="", error=False)),
        ("export done", export_state(running=False, line="/media/usb/Test lobby 2025-03-04",
                                     result=app.trn("Done: {n} row written. You can take "
                                                    "the stick out now.", "Done: {n} rows "
                                                    "written. You can take the stick out "
                                                    "now.", 12345), error=False)),
        ("games", page("games")),
        ("games note", games_note),
        ("system", page("system")),
        ("system armed", armed),
        *update_states,
    ]


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", SIZES)
def test_every_operator_page_fits_in_every_language(ui, monkeypatch, size):
    app = ui.app
    monkeypatch.setattr(app, "statistics", _statistics)
    problems: list[str] = []
    try:
        for lang in LANGS:
            ui.reset(lang, size)
            u = min(size) / 480
            tag = f"{lang} {size[0]}x{size[1]}"
            for purpose in ("menu", "maintenance"):
                app.show_pin(purpose)
                _settle(ui)
                problems += label_problems(app.pin, f"pin {purpose} {tag}")
                problems += layout_problems(app.pin, None, f"pin {purpose} {tag}", u,
                                            names=False)
            for name, show in _operator_states(ui, monkeypatch):
                show()
                _settle(ui)
                where = f"{name} {tag}"
                menu = app.operator
                problems += label_problems(menu, where)
                problems += layout_problems(menu, menu.panel, where, u,
                                            names=name.startswith(("games", "stats")))
                menu.pages["system"].reset()
                menu.pages["games"].note = ""
    finally:
        app.operator.pages["export"].state.update(running=False, line="", result="", error=False)
        app.go_welcome()
        ui.reset()
    assert not problems, "\n".join(problems[:400]) + f"\n({len(problems)} in all)"
