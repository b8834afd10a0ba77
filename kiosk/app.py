"""The Kivy application: screens, language, lock-down, keys, and crash containment.

Import this module only after :func:`kiosk.boot.configure` (Kivy reads its configuration
when it is imported). A visitor must never see a traceback nor land in a shell: exceptions
in event handlers are logged and the app keeps running (:class:`KeepRunning`); Escape, F1,
the window's close button and keyboard shortcuts do not leave the app.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import FadeTransition, NoTransition, ScreenManager

import games

from .boot import FONT_BOLD, FONT_REGULAR
from .controller import TableController
from .i18n import Translator, normalize
from .screens.picker import PickerScreen
from .screens.table import TableScreen
from .screens.welcome import WelcomeScreen
from .widgets import FELT_DARK

log = logging.getLogger("kiosk.app")

KEY_ESCAPE, KEY_F1 = 27, 282


class KeepRunning(ExceptionHandler):
    """Log any exception that escapes an event handler and carry on (a kiosk has no one to
    read a traceback). ``errors`` keeps them for the tests."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[BaseException] = []

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        self.errors.append(inst)
        log.error("unexpected error, carrying on", exc_info=inst)
        return ExceptionManager.PASS


def register_fonts() -> None:
    """Make the kiosk font (CJK + Cyrillic + suits) the default of every label."""
    LabelBase.register(DEFAULT_FONT, fn_regular=str(FONT_REGULAR), fn_bold=str(FONT_BOLD))


class KioskApp(App):
    """The touch table. ``language`` is the default language (the config back end will feed
    it); ``game`` opens straight into a game; ``four_colour`` and ``autoplay`` are settings."""

    lang = StringProperty("en")
    four_colour = BooleanProperty(False)
    animate = BooleanProperty(True)

    def __init__(self, language: str = "en", game: str | None = None, seed: int | None = None,
                 options: dict[str, Any] | None = None, *, four_colour: bool = False,
                 autoplay: bool = True, animate: bool = True, transitions: bool = True,
                 on_ready: Callable[[KioskApp], None] | None = None, **kw) -> None:
        super().__init__(**kw)
        self.translator = Translator(language)
        self.lang = self.translator.lang
        self.start_game = game
        self.start_seed = seed
        self.start_options = dict(options or {})
        self.four_colour = four_colour
        self.autoplay = autoplay
        self.animate = animate
        self.transitions = transitions
        self.on_ready = on_ready
        self.keeper = KeepRunning()
        self.use_kivy_settings = False
        self.title = "Solitaire"
        self._catalog: list[dict] | None = None
        self.controller: TableController | None = None

    # ------------------------------------------------------------------ texts
    def tr(self, msgid: str, **fields: Any) -> str:
        """Translate a UI text into the current language."""
        return self.translator.gettext(msgid, **fields)

    def set_language(self, lang: str) -> None:
        lang = normalize(lang)
        if lang == self.lang:
            return
        self.translator.set_language(lang)
        self.lang = lang
        for screen in self.sm.screens:
            try:
                screen.retranslate()
            except Exception:
                log.exception("retranslate failed for %s", screen.name)

    def catalog(self) -> list[dict]:
        """The game catalog, in the picker's order (easiest first, then by name)."""
        if self._catalog is None:
            cat = games.catalog()
            self._catalog = sorted(cat, key=lambda e: (e.get("difficulty", 3),
                                                       e["names"].get("en", e["id"])))
        return self._catalog

    def catalog_entry(self, game_id: str) -> dict:
        for e in self.catalog():
            if e["id"] == game_id:
                return e
        return {"id": game_id, "names": {}, "rules": {}, "description": {}}

    def game_ids(self) -> list[str]:
        return [e["id"] for e in self.catalog()]

    # ------------------------------------------------------------------ building
    def build(self):
        register_fonts()
        ExceptionManager.add_handler(self.keeper)
        Window.clearcolor = FELT_DARK
        Window.bind(on_request_close=self._on_request_close, on_keyboard=self._on_key)
        self.sm = ScreenManager(transition=FadeTransition(duration=0.18) if self.transitions
                                else NoTransition())
        self.welcome = WelcomeScreen()
        self.picker = PickerScreen()
        self.table = TableScreen()
        for s in (self.welcome, self.picker, self.table):
            self.sm.add_widget(s)
        for s in (self.welcome, self.picker, self.table):
            s.retranslate()
        if self.start_game:
            self.open_game(self.start_game, self.start_seed, self.start_options)
        if self.on_ready is not None:
            Clock.schedule_once(lambda _dt: self.on_ready(self), 0)
        return self.sm

    def on_stop(self) -> None:
        if self.keeper in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self.keeper)

    # ------------------------------------------------------------------ navigation
    def show_welcome(self) -> None:
        self.sm.current = "welcome"

    def show_picker(self, game_id: str | None = None) -> None:
        if game_id:
            self.picker.show_game(game_id)
        self.sm.current = "picker"

    def open_game(self, game_id: str, seed: int | None = None,
                  options: dict[str, Any] | None = None) -> TableController:
        """Sit down at ``game_id`` (a new random deal unless ``seed`` is given)."""
        ctl = TableController(game_id, seed, options, autoplay=self.autoplay)
        self.controller = ctl
        self.table.start(ctl)
        self.sm.current = "table"
        return ctl

    def open_position(self, game: games.Game) -> TableController:
        """Sit down at a constructed position (tests, saved games)."""
        ctl = TableController(game.info.id, game.seed, dict(game.opts), autoplay=self.autoplay)
        ctl.set_game(game)
        self.controller = ctl
        self.table.start(ctl)
        self.sm.current = "table"
        return ctl

    # ------------------------------------------------------------------ lock-down
    def open_settings(self, *largs) -> bool:
        """F1 opens Kivy's settings panel by default: never in a public place."""
        return False

    def display_settings(self, settings) -> bool:
        return False

    def _on_request_close(self, *args, **kw) -> bool:
        """The close button, Alt+F4 and Escape must not end the kiosk."""
        return True

    def _on_key(self, _window, key: int, _scancode: int, codepoint: str | None,
                modifiers: list[str]) -> bool:
        if key in (KEY_ESCAPE, KEY_F1):
            return True
        if self.sm.current != "table" or self.controller is None:
            return False
        ch = (codepoint or "").lower()
        try:
            if ch == "n":
                self.table.new_deal("key")
                return True
            if ch == "u":
                self.table.undo("key")
                return True
        except Exception:
            log.exception("key %r failed", ch)
            return True
        return False
