"""The Kivy application: screens, language, lock-down, keys, and crash containment.

Import this module only after :func:`kiosk.platform.boot.configure` (Kivy reads its configuration
when it is imported). A visitor must never see a traceback nor land in a shell: exceptions
in event handlers are logged and the app keeps running (:class:`KeepRunning`); Escape, F1,
the window's close button and keyboard shortcuts do not leave the app. Only the operator
menu ends it, with an exit status (:mod:`kiosk.settings.operator`).

The configuration (:class:`kiosk.settings.config.Config`) says which games the picker offers and in
which order, each game's default options, the language, the deck and autoplay. The play
log, the hardware buttons and the idle and attract timers live in :class:`kiosk.lobby.Lobby`
(``services=True`` for ``kiosk run`` and the UI tests; snapshots go without); on the table,
the log session and the idle deadline are the table controller's (docs/kiosk.md).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import FadeTransition, NoTransition, Screen

import games
from games.engine.reason import Reason
from kiosk.fleet import centre_settings
from kiosk.platform import frame_sync, heap
from kiosk.platform.boot import FONT_BOLD, FONT_REGULAR
from kiosk.platform.buttons import NEW_DEAL, UNDO
from kiosk.screens.widgets import FELT_DARK
from kiosk.settings import overrides
from kiosk.settings.config import Config, default_games
from kiosk.settings.operator import PinGuard, SystemCommands, guard_for
from kiosk.updates import quiet

from .i18n import Translator, normalize, preload
from .lobby import Lobby
from .screens.on_demand import OnDemandScreens

if TYPE_CHECKING:
    from kiosk.solving.dealcycle import DealCycle
    from kiosk.table.controller import TableController

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


class _OnDemand:
    """``app.picker``, ``app.table``, ...: the screen of that name, built the first time it
    is asked for (:class:`kiosk.screens.on_demand.OnDemandScreens`)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, app: KioskApp | None, owner: type) -> Any:
        if app is None:
            return self
        return app.sm.get_screen(self.name)


class KioskApp(App):
    """The kiosk. ``cfg`` is the configuration (defaults without one); ``language``,
    ``four_colour`` and ``autoplay`` override it when given (command-line flags); ``game``
    opens straight into a game. ``services`` starts the play log and the hardware buttons
    (``pin_factory`` for gpiozero; the tests pass a MockFactory), ``runner`` runs reboot and
    power off (see :class:`kiosk.settings.operator.SystemCommands`)."""

    lang = StringProperty("en")
    four_colour = BooleanProperty(False)
    animate = BooleanProperty(True)

    welcome = _OnDemand("welcome")
    picker = _OnDemand("picker")
    table = _OnDemand("table")
    attract = _OnDemand("attract")
    pin = _OnDemand("pin")
    operator = _OnDemand("operator")
    variants = _OnDemand("variants")
    gin = _OnDemand("gin")
    poker = _OnDemand("poker")
    trick_table = _OnDemand("trick")

    def __init__(self, language: str | None = None, game: str | None = None,
                 seed: int | None = None, options: dict[str, Any] | None = None, *,
                 cfg: Config | None = None, four_colour: bool | None = None,
                 autoplay: bool | None = None, animate: bool = True, transitions: bool = True,
                 on_ready: Callable[[KioskApp], None] | None = None, services: bool = False,
                 data_dir: Path | None = None, pin_factory: Any = None,
                 runner: Callable | None = None, playlog: Any = None, **kw) -> None:
        super().__init__(**kw)
        if cfg is None:
            cfg = Config()
            cfg.games = default_games()
        self.cfg = cfg
        self.translator = Translator(language or cfg.language)
        self.lang = self.translator.lang
        self.start_game = game
        self.start_seed = seed
        self.start_options = dict(options or {})
        self.four_colour = cfg.four_colour if four_colour is None else four_colour
        #: the deck each visitor starts with (a visitor may switch it on the rules sheet)
        self.deck_default = self.four_colour
        self.autoplay = cfg.autoplay if autoplay is None else autoplay
        self.animate = animate
        self.transitions = transitions
        self.on_ready = on_ready
        self.keeper = KeepRunning()
        self.use_kivy_settings = False
        self.title = "Card games"
        self._catalog: list[dict] | None = None
        self._entries: dict[str, dict] = {}
        self.controller: TableController | None = None
        #: the thread reading the other languages' catalogs, once started after the first
        #: frame (the UI tests wait for it: it shares the interpreter with timed presses)
        self.catalog_reader: threading.Thread | None = None
        #: a table was sat at since the allocator was last trimmed (:func:`kiosk.platform.heap.give_back`)
        self._tables_since_trim = False
        #: "winnable deals only": one deal cycle per list, for the whole run
        self._cycles: dict[str, DealCycle] = {}
        #: problems of the configuration and of the menu's saved settings (operator menu)
        self.notes: list[str] = []
        self.exit_code = 0
        self.data_dir = data_dir
        #: with a data directory the PIN is read (or drawn) at start, as the operator expects;
        #: without one (snapshots) it is a random PIN nobody knows, drawn when first needed
        self._pin_guard = (guard_for(cfg.operator_pin, data_dir, record=self.record_event)
                           if data_dir is not None or cfg.operator_pin is not None else None)
        self.system = SystemCommands(self.exit_app, runner)
        self.lobby = Lobby(self, cfg, services=services, data_dir=data_dir, playlog=playlog,
                           pin_factory=pin_factory)

    # ------------------------------------------------------------------ texts
    def tr(self, msgid: str, **fields: Any) -> str:
        """Translate a UI text into the current language."""
        return self.translator.gettext(msgid, **fields)

    def trn(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """A UI sentence with a number in it, in the form that number needs (``{n}``)."""
        return self.translator.ngettext(singular, plural, n, **fields)

    def tr_reason(self, value: Reason | str | None) -> str:
        """An engine :class:`~games.engine.reason.Reason` or a back-end sentence in the current
        language (English when the catalogs do not cover it)."""
        return self.translator.reason(value)

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

    @property
    def pin_guard(self) -> PinGuard:
        if self._pin_guard is None:
            self._pin_guard = guard_for(self.cfg.operator_pin, self.data_dir,
                                        record=self.record_event)
        return self._pin_guard

    def catalog(self) -> list[dict]:
        """The enabled games' catalog entries, in the picker's order (the configuration's):
        names, description, rules, difficulty (:func:`games.summary`; no game module is
        imported for them)."""
        if self._catalog is None:
            known = set(games.ids())
            self._catalog = [self.catalog_entry(g) for g in self.cfg.games if g in known]
        return self._catalog

    def catalog_entry(self, game_id: str) -> dict:
        entry = self._entries.get(game_id)
        if entry is None:
            try:
                entry = games.summary(game_id)
            except games.GameError:
                return {"id": game_id, "names": {}, "rules": {}, "description": {}}
            self._entries[game_id] = entry
        return entry

    def game_ids(self) -> list[str]:
        """The enabled games, in the picker's order (their texts are not read for it)."""
        known = set(games.ids())
        return [g for g in self.cfg.games if g in known]

    def all_game_ids(self) -> list[str]:
        """Every registered game, in the default order (the operator's Games page)."""
        return default_games()

    # ------------------------------------------------------------------ building
    def build(self):
        register_fonts()
        ExceptionManager.add_handler(self.keeper)
        Window.clearcolor = FELT_DARK
        #: an offscreen window's frames are waited for, else Mesa's queue grows (frame_sync)
        self.frames_finished = frame_sync.attach(Window, os.environ.get("SDL_VIDEODRIVER"))
        Window.bind(on_request_close=self._on_request_close, on_keyboard=self._on_key)
        # screens are built when first shown (the welcome screen now), at the window's size
        self.sm = OnDemandScreens(on_built=self._built, size=Window.size,
                                  transition=FadeTransition(duration=0.18) if self.transitions
                                  else NoTransition())
        self.sm.get_screen("welcome")
        self.lobby.start()
        for problem in self.config_problems():
            log.warning("configuration: %s", problem)
        if self.start_game:
            self.open_game(self.start_game, self.start_seed, self.start_options)
        else:
            self.welcome.on_pre_enter()
        if self.on_ready is not None:
            Clock.schedule_once(lambda _dt: self.on_ready(self), 0)
        Window.bind(on_flip=self._first_frame_shown)
        data_dir = self.lobby_data_dir()
        self._centre_seen = overrides.centre_version(data_dir) if data_dir else (None, [])
        Clock.schedule_interval(lambda _dt: self.take_centre_settings(), 30)
        return self.sm

    def take_centre_settings(self) -> None:
        """The fleet centre's settings a sync pass wrote since: taken on the welcome screen
        only, never in a visitor's game (kiosk/fleet/centre_settings.py)."""
        data_dir = self.lobby_data_dir()
        if self.sm.current != "welcome" or data_dir is None:
            return
        pin = self.cfg.operator_pin
        seen = centre_settings.take_into(self.cfg, data_dir, self._centre_seen)
        if seen is None:
            return
        self._centre_seen = seen
        if self.cfg.operator_pin != pin:  # built again from the new hash when next asked
            self._pin_guard = None
        self.lobby.idle_timeout = float(self.cfg.idle_timeout)
        self.lobby.attract_enabled = bool(self.cfg.attract.enabled)
        self.lobby.attract_delay = float(self.cfg.attract.delay)
        self.set_language(self.cfg.language)
        self._catalog = None
        picker = self.sm.built("picker")
        if picker is not None:
            picker._built_for = None
            picker._arrange()
        self.welcome.retranslate()
        self.lobby.arm()

    def _built(self, screen: Screen) -> None:
        screen.retranslate()

    def _first_frame_shown(self, *_a) -> None:
        """The first screen is up: what a visitor's first touch needs comes in the next
        frames rather than under that touch or before the first frame: the play log
        (:meth:`kiosk.lobby.Lobby.after_first_frame`), the picker (the first touch opens
        it), and the other languages' catalogs, read off the UI thread so that a first tap
        on a language button does not wait for Babel to parse them (started before the
        first frame, that thread took the interpreter from the start's own work)."""
        Window.unbind(on_flip=self._first_frame_shown)
        # the screen shown, from the first frame on, for the updates: their health check
        # (the welcome screen is up) and their restart when nobody plays (kiosk/updates/quiet.py)
        quiet.publish(self.sm.current)
        self.sm.bind(current=lambda _sm, name: quiet.publish(name))
        Clock.schedule_once(lambda _dt: self.lobby.after_first_frame(), 0)
        Clock.schedule_once(lambda _dt: self.sm.get_screen("picker"), 0)
        Clock.schedule_once(lambda _dt: self._read_catalogs(), 0)

    def _read_catalogs(self) -> None:
        self.catalog_reader = threading.Thread(target=preload, name="kiosk-catalogs",
                                               daemon=True)
        self.catalog_reader.start()

    def _stop_demo(self) -> None:
        """Stop attract mode if it ever started (no demo screen is built to say no)."""
        demo = self.sm.built("attract")
        if demo is not None:
            demo.stop()

    def on_stop(self) -> None:
        try:
            self.lobby.stop()
        except Exception:
            log.exception("closing the play log failed")
        if self.keeper in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self.keeper)

    def exit_app(self, code: int) -> None:
        """End the app with ``code`` (the operator menu's restart and maintenance)."""
        self.exit_code = code
        self.stop()

    # ------------------------------------------------------------------ navigation
    def show_welcome(self) -> None:
        self._stop_demo()
        picker = self.sm.built("picker")
        if picker is not None:  # whoever comes from the welcome screen starts at page 1
            picker.first_page()
        self.sm.current = "welcome"
        self.lobby.arm()

    def go_welcome(self) -> None:
        """Back to the welcome screen in the default language (idle, the menu's Close)."""
        table = self.sm.built("table")
        if table is not None:
            table.close_sheet()
        self.lobby.forget_left()  # nobody finds the last visitor's game under Undo
        self.four_colour = self.deck_default  # nor their deck
        self.set_language(self.cfg.language)
        self.show_welcome()
        self.take_centre_settings()
        if self._tables_since_trim:  # the tables left behind are garbage: give it back
            self._tables_since_trim = False
            Clock.schedule_once(lambda _dt: heap.give_back(), 0)

    def show_picker(self, game_id: str | None = None) -> None:
        self._stop_demo()
        if game_id:
            self.picker.show_game(game_id)
        self.sm.current = "picker"

    def choose_game(self, game_id: str) -> None:
        """A visitor picked ``game_id``: the variant sheet when the operator offers two or
        more of its variants, else straight to the table (with the default variant when
        the operator chose one)."""
        from kiosk.settings import variants

        if len(variants.offered(self.cfg, game_id)) >= 2:
            self._stop_demo()
            self.variants.open(game_id)
            self.sm.current = "variants"
            return
        chosen = variants.default(self.cfg, game_id)
        configured = game_id in self.cfg.variant_offer or game_id in self.cfg.variant_default
        self.open_game(game_id, options=dict(chosen.options) if chosen and configured
                       else None)

    def show_pin(self, purpose: str = "menu") -> None:
        self._stop_demo()
        self.pin.open(purpose)
        self.sm.current = "pin"

    def show_operator(self, page: str = "stats") -> None:
        self.sm.current = "operator"
        self.operator.open(page)

    def _seeds_for(self, game_id: str, options: dict[str, Any]) -> Callable[[], int | None] | None:
        """Deals for a game in "winnable deals only" mode (:meth:`Config.winnable`): the next
        deal of a shuffled cycle through its list, kept across restarts
        (:class:`kiosk.solving.dealcycle.DealCycle`). None: any deal number."""
        on, why = self.cfg.winnable(game_id, options)
        if not on:
            return None
        from kiosk.solving import deals
        from kiosk.solving.dealcycle import DealCycle

        deal_list = deals.stored(game_id, options)
        if deal_list is None or not deal_list.deals:
            log.warning("%s: winnable deals only (%s) but there is no usable deal list; "
                        "any deal", game_id, why)
            return None
        key = deals.list_path(game_id, options).stem
        cycle = self._cycles.get(key)
        if cycle is None or cycle.seeds != deal_list.seeds:
            cycle = DealCycle(key, deal_list.seeds, self.lobby_data_dir())
            self._cycles[key] = cycle
        return cycle.next

    def open_game(self, game_id: str, seed: int | None = None,
                  options: dict[str, Any] | None = None) -> TableController:
        """Sit down at ``game_id`` (a new random deal unless ``seed`` is given), with the
        configured options of that game unless ``options`` are given."""
        from kiosk.table.controller import TableController

        opts = self.cfg.options_for(game_id)
        opts.update(options or {})
        ctl = TableController(game_id, seed, opts, autoplay=self.autoplay,
                              seeds=self._seeds_for(game_id, opts), clock=self.lobby.clock)
        return self._sit(ctl)

    def open_position(self, game: games.Game) -> TableController:
        """Sit down at a constructed position (tests, saved games)."""
        from kiosk.table.controller import TableController

        ctl = TableController(game.info.id, game.seed, dict(game.opts), autoplay=self.autoplay,
                              clock=self.lobby.clock)
        ctl.set_game(game)
        return self._sit(ctl)

    def _sit(self, ctl: TableController) -> TableController:
        self._stop_demo()
        self.controller = ctl
        self._tables_since_trim = True
        self.lobby.follow(ctl)
        from games.families.seats import SeatedGame

        if isinstance(ctl.game, SeatedGame):  # a hand against the computer
            seated = {"draw_poker": self.poker, "follow_the_rules": self.trick_table}.get(
                ctl.game_id, self.gin)
            seated.start(ctl)
            self.sm.current = seated.name
            return ctl
        self.table.start(ctl)
        self.sm.current = "table"
        return ctl

    # ------------------------------------------------------------------ the operator's data
    def record_event(self, kind: str, detail: dict[str, Any]) -> None:
        """An event for the play log (the keypad's wrong PINs and lock-outs)."""
        if self.lobby.playlog is not None:
            self.lobby.playlog.event(kind, detail)

    def config_problems(self) -> list[str]:
        return list(self.cfg.problems) + list(self.notes)

    def log_status(self):
        playlog = self.lobby.playlog
        return None if playlog is None else playlog.status

    def log_path(self) -> Path | None:
        playlog = self.lobby.playlog
        return None if playlog is None else playlog.path

    def flush_log(self) -> None:
        if self.lobby.playlog is not None:
            self.lobby.playlog.retry()

    def statistics(self) -> dict | None:
        """:func:`kiosk.records.stats.stats` of the play log, or None without one."""
        from kiosk.records import export, stats

        playlog = self.lobby.playlog
        if playlog is None:
            return None
        self.flush_log()
        try:
            with export.snapshot(playlog.path) as conn:
                return stats.stats(conn, clock=playlog.clock)
        except export.ExportError:
            return {"games": {}, "total": {"all": stats._summary([]),
                                           "today": stats._summary([])},
                    "clock_synced": True}

    def set_enabled_games(self, game_ids: list[str]):
        """The operator's choice of games (kept in order); saved for the next start."""
        known = set(games.ids())
        self.cfg.games = [g for g in game_ids if g in known]
        self._catalog = None
        picker = self.sm.built("picker")
        if picker is not None:  # else it is built with the new list when first shown
            picker._built_for = None
            picker._arrange()
        self.welcome.retranslate()
        self.lobby.arm()
        return overrides.save(self.cfg, self.lobby_data_dir(), games=self.cfg.games)

    def set_winnable_only(self, game_id: str, on: bool):
        """The operator's "winnable deals only" for one game; saved for the next start. It
        applies from the next time a visitor sits down at that game."""
        (self.cfg.winnable_only if on else self.cfg.winnable_off).add(game_id)
        (self.cfg.winnable_off if on else self.cfg.winnable_only).discard(game_id)
        return overrides.save(self.cfg, self.lobby_data_dir(), winnable={game_id: on})

    def set_variants(self, game_id: str, offer: list[str], default: str):
        """The operator's variants of one game for the visitors' sheet (offered, default);
        saved for the next start, used from the next time a visitor picks the game."""
        self.cfg.variant_offer[game_id] = list(offer)
        self.cfg.variant_default[game_id] = default
        return overrides.save(self.cfg, self.lobby_data_dir(),
                              variants={game_id: (list(offer), default)})

    def set_default_language(self, lang: str):
        self.cfg.language = normalize(lang)
        self.set_language(self.cfg.language)
        return overrides.save(self.cfg, self.lobby_data_dir(), language=self.cfg.language)

    def lobby_data_dir(self) -> Path | None:
        if self.data_dir is not None:
            return self.data_dir
        playlog = self.lobby.playlog
        return playlog.path.parent if playlog is not None else None

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
        """Escape and F1 are swallowed; N and U are the hardware buttons' keys."""
        if key in (KEY_ESCAPE, KEY_F1):
            return True
        if self.lobby.poke():  # it answered "Still playing?" and does nothing else
            return True
        ch = (codepoint or "").lower()
        event = {"n": NEW_DEAL, "u": UNDO}.get(ch)
        if event is None or self.sm.current in ("pin", "operator"):
            return False
        try:
            self.lobby.on_button(event, "key")
        except Exception:
            log.exception("key %r failed", ch)
        return True
