"""Every state the operator's screens can show, for the checkers that measure them all (text
fit, contrast, touch targets, the scroll bar): the PIN keypad (menu, maintenance, locked)
and each page of the menu in each state it can be in: statistics with every line, the
Status page without and with a fleet (never synced, synced, syncing, the outcome of
"Sync now", each kind of sync error, rows set aside) and with configuration problems,
Export before, during and after a copy, Games with a note, System armed.

:func:`operator_places` lays each state out in every language and size and, for a page
with a list, at every scroll position from top to bottom, so a text or a button below the
fold is measured too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import games
from kiosk.fleet import state as fleet_state
from kiosk.fleet import status_panel
from kiosk.records import stats
from kiosk.settings import config
from kiosk.settings.config import Fleet
from kiosk.settings.tables import table_can_play

from .screen_walk import LANGS, SIZES, settle
from .update_states import update_page_states

#: every kind of sync error the Status page explains, an unknown one, and an error
#: recorded before kinds were (None)
ERROR_KINDS = (*status_panel.ADVICE, "a-kind-from-newer-software", None)
#: what a pass's own line looks like: the server's words, which the page never shows
RAW_ERROR = ("the central database: connection to server at \"db.example.org\", port 5432 failed: "
             "FATAL: password authentication failed for user \"kiosk_lobby\"")
#: a configuration with a problem of most kinds the checker reports
BAD_CONFIG = """name = "Lobby"
language = "de"
idle_timeout = "soon"
rotation = 45
colour = "green"
[buttons]
new_deal_pin = 30
undo_pin = "x"
[log]
data_dir = "relative/dir"
[fleet]
port = 0
[games]
enabled = ["klondike", "no_such_game", "klondike"]
[games.klondike]
draw = 2
flavour = "x"
offer_variants = ["nope"]
"""


def statistics() -> dict:
    """Figures for every game the table plays, and all three games against the computer at
    both levels, so every name and every line of the Statistics page is laid out."""
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


def bad_config_problems() -> list[str]:
    """The problems of :data:`BAD_CONFIG`, as the checker makes them (Problem values)."""
    return config.load_text(BAD_CONFIG, "/etc/solitaire-kiosk/config.toml").problems


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class OperatorStates:
    """Puts the app's operator screens into each state; :meth:`clean` puts it back."""

    def __init__(self, ui) -> None:
        self.ui = ui
        self.app = ui.app
        self.menu = ui.app.operator
        self.data_dir = ui.app.cfg.existing_db_path().parent
        self._path, self._problems = ui.app.cfg.path, ui.app.config_problems

    def clean(self) -> None:
        app, menu = self.app, self.menu
        app.cfg.fleet = None
        app.cfg.path, app.config_problems = self._path, self._problems
        (self.data_dir / fleet_state.STATUS_NAME).unlink(missing_ok=True)
        fleet = menu.pages["status"].fleet
        if fleet._tick is not None:
            fleet._tick.cancel()
            fleet._tick = None
        fleet.watch, fleet.outcome = None, None
        menu.pages["export"].state.update(running=False, line="", result="", error=False)
        menu.pages["games"].note = ""
        menu.pages["system"].reset()
        guard = app.pin_guard
        for name in ("locked", "seconds_left"):
            guard.__dict__.pop(name, None)
        app.pin._stop_tick()

    # ------------------------------------------------------------------ the states
    def states(self) -> list[tuple[str, Callable[[], object]]]:
        """(name, set-up); each set-up starts from :meth:`clean` and leaves its screen on,
        returning the widget that takes the touches there."""
        out: list[tuple[str, Callable[[], object]]] = [
            ("pin menu", lambda: self.pin("menu")),
            ("pin maintenance", lambda: self.pin("maintenance")),
            ("pin locked", self.pin_locked),
            ("stats today", lambda: self.page("stats", scope="today")),
            ("stats all", lambda: self.page("stats", scope="all")),
            ("stats no log", self.stats_without_log),
            ("status", lambda: self.page("status")),
            ("status long paths", self.long_paths),
            ("status config problems", self.config_problems),
            ("status fleet never synced", lambda: self.fleet()),
            ("status fleet synced", lambda: self.fleet(last_ok=_now(), sent_plays=12)),
            ("status fleet sync done", lambda: self.fleet(last_ok=_now(), sent_plays=12,
                                                          outcome="done")),
            ("status fleet nothing new", lambda: self.fleet(last_ok=_now(), sent_plays=0,
                                                            outcome="done")),
            ("status fleet syncing", lambda: self.fleet(last_ok=_now(), syncing=True)),
            ("status fleet set aside", lambda: self.fleet(last_ok=_now(), set_aside=3)),
            ("status fleet not started", lambda: self.fleet(outcome="not started")),
            ("status fleet no result", lambda: self.fleet(outcome="no result")),
            ("status fleet timeout", lambda: self.fleet(outcome="timeout")),
        ]
        for kind in ERROR_KINDS:
            out.append((f"status fleet error {kind}", lambda k=kind: self.fleet(
                last_ok=_now(), last_error=RAW_ERROR, last_error_kind=k, set_aside=1)))
        out += [
            ("export", lambda: self.export(running=False, line="", result="", error=False)),
            ("export running", lambda: self.export(running=True, line=self.app.trn(
                "Writing… {done} of {n} row", "Writing… {done} of {n} rows", 12345, done=678),
                result="", error=False)),
            ("export done", lambda: self.export(
                running=False, line="/media/usb/Test lobby 2025-03-04", error=False,
                result=self.app.trn("Done: {n} row written. You can take the stick out now.",
                                    "Done: {n} rows written. You can take the stick out "
                                    "now.", 12345))),
            ("export error", lambda: self.export(
                running=False, line="", error=True,
                result=self.app.tr_reason("No USB stick found. Plug one in and try again."))),
            ("games", lambda: self.page("games")),
            ("games note", self.games_note),
            ("system", lambda: self.page("system")),
            ("system armed", self.armed),
        ]
        return out

    def pin(self, purpose: str):
        self.app.show_pin(purpose)
        return self.app.pin

    def pin_locked(self):
        guard = self.app.pin_guard
        guard.locked, guard.seconds_left = (lambda: True), (lambda: 3540)
        self.app.show_pin()
        return self.app.pin

    def page(self, name: str, **state):
        self.app.show_operator(name)
        for key, value in state.items():
            setattr(self.menu.pages[name], key, value)
        self.menu.rebuild()
        return self.menu

    def stats_without_log(self):
        real = self.app.statistics
        self.app.statistics = lambda: None
        try:
            return self.page("stats")
        finally:
            self.app.statistics = real

    def long_paths(self):
        # CI's temporary directory (/tmp/pytest-of-root/pytest-306/popen-gw1/...) once made
        # Kivy's space-only wrapping cut "config.toml" into "con / fig": a path is always
        # longer than the portrait screen here, whatever the temporary directory
        deep = "/var/lib/solitaire-kiosk-test-fixture/" + "lobby-configuration/" * 4
        path = deep + "config.toml"
        app = self.app
        app.cfg.path = type(self._path)(path) if self._path is not None else path
        app.config_problems = lambda: [f"{path}: lobby.idle_seconds must be a number"]
        return self.page("status")

    def config_problems(self):
        problems = bad_config_problems()
        self.app.config_problems = lambda: problems
        return self.page("status")

    def fleet(self, *, outcome: str | None = None, syncing: bool = False, **status):
        self.app.cfg.fleet = Fleet(server="fleet.example.org", user="kiosk_lobby")
        if status:
            fleet_state.save_status(self.data_dir, fleet_state.Status(**status))
        self.app.show_operator("status")  # opening the menu forgets an old outcome
        fleet = self.menu.pages["status"].fleet
        fleet.outcome = outcome
        if syncing:  # followed, but nothing polls it here: the walk decides when it ends
            fleet.watch = status_panel.SyncWatch(self.data_dir, None)
        self.menu.rebuild()
        return self.menu

    def export(self, **st):
        self.app.show_operator("export")
        self.menu.pages["export"].state.update(st)
        self.menu.rebuild()
        return self.menu

    def games_note(self):
        self.app.show_operator("games")
        self.menu.pages["games"].note = self.app.tr(
            "Not saved ({reason}); the change lasts until the app restarts.",
            reason="cannot write /etc/x.toml: read-only")
        self.menu.rebuild()
        return self.menu

    def armed(self):
        self.app.show_operator("system")
        system = self.menu.pages["system"]
        system.system_action("reboot")
        system.note = self.app.tr("{what}: {why}", what=self.app.tr("Could not shut down"),
                                  why="Access denied")
        self.menu.rebuild()
        return self.menu


def scroll_positions(root) -> Iterator[None]:
    """The list of ``root`` (if any) at its top, then a view further down each time, to its
    end; yields once per position, laid out."""
    from kivy.uix.scrollview import ScrollView

    lists = [w for w in root.walk(restrict=True) if isinstance(w, ScrollView)]
    yield
    for sv in lists:
        content = sv.children[0] if sv.children else None
        if content is None or content.height <= sv.height + 1:
            continue
        room = content.height - sv.height
        offset = 0.0
        while offset < room:
            offset = min(room, offset + sv.height * 0.8)
            sv.scroll_y = 1 - offset / room
            settle()
            yield
        sv.scroll_y = 1


def operator_places(ui, monkeypatch, sizes=SIZES, langs=LANGS,
                    every_position: bool = True) -> Iterator[tuple[str, str, object]]:
    """(state, where, widget) for every state of :class:`OperatorStates` and of the Software
    update page (tests/ui/update_states.py), in every language
    and size, at every scroll position (``every_position``) or at the top only."""
    monkeypatch.setattr(ui.app, "statistics", statistics)
    states = OperatorStates(ui)
    try:
        for size in sizes:
            for lang in langs:
                ui.reset(lang, size)
                tag = f"{lang} {size[0]}x{size[1]}"
                updates = [(name, lambda s=setup: (s(), ui.app.operator)[1])
                           for name, setup in update_page_states(ui, monkeypatch)]
                for name, show in states.states() + updates:
                    states.clean()
                    root = show()
                    settle()
                    if not every_position:
                        yield name, f"{name} {tag}", root
                        continue
                    for k, _ in enumerate(scroll_positions(root)):
                        where = f"{name} {tag}" + (f" (scrolled {k})" if k else "")
                        yield name, where, root
    finally:
        states.clean()
        ui.app.go_welcome()
        ui.reset()
