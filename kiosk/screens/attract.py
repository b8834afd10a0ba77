"""Attract mode: the kiosk plays by itself, one enabled game after another, under a
"touch the screen to play" banner. Any touch wakes it and opens the game picker; that touch
never reaches the demo's cards (the screen takes every touch itself).

A game with a deal list replays a solved deal to its win at a watchable pace
(:meth:`kiosk.solving.attract.DemoPlayer.pace`); the win gets the table's celebration
(:func:`kiosk.screens.celebration.fireworks`) under a "Solved!" panel, then the next game comes.
A game against the computer shows one hand played computer against computer on the game's
own hand table, drawn as a visitor sees it: names, chips, the pot, the words
(:class:`kiosk.solving.attract.HandDemo`), so a passer-by learns those games are there too
and what they look like. The banner lies beside such a table on a landscape screen (under
it, the table's texts would have to shrink under the reading floor). A demo table is never
logged."""

from __future__ import annotations

import gc
import logging
import random

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen

from kiosk.platform import heap
from kiosk.screens.celebration import cascade_over, fireworks
from kiosk.screens.on_demand import screen_class
from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, Felt, Panel
from kiosk.settings.config import HAND_TABLES
from kiosk.solving.attract import DemoPlayer, HandDemo
from kiosk.table.controller import TableController
from kiosk.table.table_view import TableView

from ..i18n import game_text
from .rules_sheet import Sheet

log = logging.getLogger("kiosk.attract")

#: how many of the last demo games ``games_shown`` remembers (the tests look at the last few)
SHOWN_KEPT = 200
#: the hand table (its screen's name) that shows each game against the computer
HAND_SCREENS = {"draw_poker": "poker", "follow_the_rules": "trick"}


class DemoTurns:
    """A demo table's computer turns: decided at once on the UI thread (the demo's own
    pace is the pause a person follows), in place of the table's background worker."""

    pause = 0.0
    thinking = False

    def ask(self, game) -> None:
        pass

    def ready(self, game):
        return game.computer_move()

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


class AttractScreen(Screen):
    """The demo table. ``step`` is the slowest pace (seconds per move; a long stored line
    goes faster, see :meth:`DemoPlayer.pace`), ``pause`` the rest between two games and
    ``won_pause`` the time the won table and its celebration stay on screen."""

    step = 0.9
    pause = 3.0
    won_pause = 6.0

    def __init__(self, **kw) -> None:
        super().__init__(name="attract", **kw)
        self.root = FloatLayout()
        self.root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.add_widget(self.root)
        self.view: TableView | None = None
        self.ctl: TableController | None = None
        self.player: DemoPlayer | HandDemo | None = None
        self.banner = Panel(orientation="vertical", size_hint=(None, None),
                            fill=(0.02, 0.1, 0.05, 0.82))
        self.prompt = FitLabel(bold=True, color=GOLD, halign="center", valign="middle")
        self.caption = FitLabel(color=(1, 1, 1, 1), halign="center", valign="middle")
        self.banner.add_widget(self.prompt)
        self.banner.add_widget(self.caption)
        self.root.add_widget(self.banner)
        self.running = False
        self.games_shown: list[str] = []
        self._order: list[str] = []
        self._index = -1
        self._ev = None
        self._rnd = random.Random()
        self._pace = self.step
        #: the "Solved!" cover of a won demo (None while a demo plays)
        self.sheet: Sheet | None = None
        #: how many demos ended in a win (the tests watch it)
        self.wins = 0
        #: the demo's own hand tables, by screen name, built when first shown (the
        #: visitor's are the app's; a demo never touches them)
        self.hand_tables: dict[str, Screen] = {}
        #: the hand table showing the current demo (None: a solitaire's TableView)
        self.hand_table: Screen | None = None
        self.bind(size=self._arrange)

    @property
    def app(self):
        return App.get_running_app()

    # ------------------------------------------------------------------ show
    def start(self) -> None:
        """Start the demo (from the welcome screen's timer)."""
        app = self.app
        # the solitaires replay solved deals; the games against the computer show a hand
        self._order = list(app.game_ids())
        if not self._order:
            return
        self.running = True
        self._index = self._rnd.randrange(len(self._order)) - 1
        app.sm.current = "attract"
        self._next_game()
        if app.animate:
            Animation.cancel_all(self.prompt)
            pulse = Animation(opacity=0.45, d=1.1, t="in_out_sine") + \
                Animation(opacity=1, d=1.1, t="in_out_sine")
            pulse.repeat = True
            pulse.start(self.prompt)

    def stop(self) -> None:
        self.running = False
        self._cancel()
        self._close_sheet()
        Animation.cancel_all(self.prompt)
        self.prompt.opacity = 1

    def _cancel(self) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None

    def _next_game(self, *_a) -> None:
        self._cancel()
        self._close_sheet()
        if not self.running:
            return
        app = self.app
        self._index = (self._index + 1) % len(self._order)
        game_id = self._order[self._index]
        options = app.cfg.options_for(game_id)
        try:
            demo = HandDemo if game_id in HAND_TABLES else DemoPlayer
            self.player = demo(game_id, options, self._rnd)
            self.ctl = TableController(game_id, self.player.seed(), options, autoplay=False,
                                       demo=True)
            self.player.fast_forward(self.ctl.game)  # a long line: only its end is shown
        except Exception:  # noqa: BLE001 - one broken game must not end the show
            log.exception("demo of %s failed to start", game_id)
            self._ev = Clock.schedule_once(self._next_game, self.pause)
            return
        self.games_shown.append(game_id)
        del self.games_shown[:-SHOWN_KEPT]  # attract mode runs for months
        if isinstance(self.player, HandDemo):
            self._show_hand_table(HAND_SCREENS.get(game_id, "gin"))
        else:
            self._show_view()
        # the finished demo's widgets are reference cycles holding GL textures the garbage
        # collector's counts do not see: collect them now, not some thousand objects later
        gc.collect()
        heap.give_back()  # and what it freed goes back to the system (kiosk.platform.heap)
        self._pace = self.player.pace(self.step)
        self._arrange()
        self.retranslate()
        self._ev = Clock.schedule_once(self._step, self._pace)

    def _show_view(self) -> None:
        """A solitaire's demo: the table's own card view (the hand table out of sight)."""
        app = self.app
        self._hide_hand_table()
        if self.view is None:
            self.view = TableView(self.ctl, size_hint=(None, None))
        if self.view.parent is None:
            self.root.add_widget(self.view, index=len(self.root.children) - 1)
        self.view.four_colour = app.four_colour
        self.view.animate = app.animate
        self.view.set_controller(self.ctl)

    def _show_hand_table(self, name: str) -> None:
        """A game against the computer: its hand table, as a visitor sees it, its Leave
        button hidden (a touch wakes the kiosk, whatever it touches)."""
        if self.view is not None and self.view.parent is not None:
            self.view.parent.remove_widget(self.view)
        table = self.hand_tables.get(name)
        if table is None:
            table = screen_class(name)(size_hint=(None, None))
            table.turns.close()  # its worker thread is not needed: a demo decides at once
            table.turns = DemoTurns()
            self.hand_tables[name] = table
        if table is not self.hand_table:
            self._hide_hand_table()
            self.root.add_widget(table, index=len(self.root.children) - 1)
            self.hand_table = table
        table.home.opacity = 0
        table.home.disabled = True
        table.start(self.ctl)

    def _hide_hand_table(self) -> None:
        table, self.hand_table = self.hand_table, None
        if table is not None and table.parent is not None:
            table.parent.remove_widget(table)

    def play_one(self) -> bool:
        """One move of the show; False when it is over (the line or the hand played out,
        or the auto-player's ideas ran out)."""
        if self.ctl is None or self.player is None:
            return False
        if isinstance(self.player, HandDemo):
            table = self.hand_table
            if table is None or not self.player.goes_on(self.ctl.game) \
                    or not table.demo_step():
                return False
            self.player.played += 1
            return True
        move = self.player.next_move(self.ctl.game)
        return move is not None and self.ctl.play(move, "demo") is None  # the view redraws

    def _step(self, _dt: float) -> None:
        self._ev = None
        if not self.running or self.ctl is None or self.player is None:
            return
        try:
            if self.play_one():
                self._ev = Clock.schedule_once(self._step, self._pace)
                return
        except Exception:  # noqa: BLE001
            log.exception("demo of %s stopped", self.ctl.game_id)
        rest = self.pause
        if self.ctl.game.won:
            self.wins += 1
            rest = self.won_pause
            try:
                self._show_won()
            except Exception:  # noqa: BLE001 - a drawing bug must not end the show
                log.exception("won demo of %s: no celebration", self.ctl.game_id)
        self._ev = Clock.schedule_once(self._next_game, rest)

    # ------------------------------------------------------------------ the win
    def _show_won(self) -> None:
        """The won table under a "Solved!" panel, with the table's firework; the banner
        stays on top (a touch still wakes the kiosk)."""
        self._close_sheet()
        w, h = self.size
        u = min(w, h) / 480
        sheet = Sheet(dim=0.35, size_hint=(1, 1), pos_hint={"x": 0, "y": 0})
        title = Label(text=self.app.tr("Solved!"), bold=True, color=GOLD, font_size=46 * u)
        sheet.panel.add_widget(title)
        sheet.panel.size = (min(w * 0.8, 420 * u), 110 * u)
        top = (96 if w >= h else 124) * u + 16 * u  # above the banner
        sheet.panel.pos = ((w - sheet.panel.width) / 2, top + (h - top - sheet.panel.height) / 2)
        self.root.add_widget(sheet, index=1)  # over the cards, under the banner
        self.sheet = sheet
        if self.app.animate:
            seed = self.ctl.seed if self.ctl else 0
            # the bouncing cards under the panel (they stop with the sheet), as at the table
            cascade_over(sheet, self.ctl.game, self.view.geometry(), seed=seed,
                         four_colour=self.app.four_colour, index=len(sheet.children),
                         area=(0, 0, w, h))
            fireworks(sheet, (w, h), seed=seed)

    def _close_sheet(self) -> None:
        if self.sheet is not None:
            if self.sheet.parent is not None:
                self.sheet.parent.remove_widget(self.sheet)
            self.sheet = None

    # ------------------------------------------------------------------ texts and layout
    def retranslate(self) -> None:
        app = self.app
        for table in self.hand_tables.values():
            table.retranslate()
        self.prompt.text = app.tr("Touch the screen to play")
        if self.ctl is not None:
            name = game_text(app.catalog_entry(self.ctl.game_id), "names", app.lang)
            self.caption.text = (app.tr("Demo: {game}, the computer plays every hand", game=name)
                                 if isinstance(self.player, HandDemo) else
                                 app.tr("Demo: {game}", game=name))
        self._arrange()

    def _arrange(self, *_a) -> None:
        """The banner along the foot, the table above it; a hand table on a landscape
        screen keeps the whole height (its texts are sized from it) and the banner stands
        beside it. Prompt and caption never under the reading floor (the caption was 16 px
        a unit, shrunk further to stay on one line)."""
        w, h = self.size
        if w < 10:
            return
        u = min(w, h) / 480
        landscape = w >= h
        beside = landscape and self.hand_table is not None
        floor = READ_PX * u
        if beside:
            bw, bh = w * 0.25, h - 20 * u
            self.banner.size = (bw, bh)
            self.banner.pos = (w - bw - 8 * u, 10 * u)
            self.banner.orientation = "vertical"
            self.prompt.size_hint_y, self.caption.size_hint_y = 0.4, 0.6
            self.caption.valign = self.prompt.valign = "middle"
        else:  # a portrait caption may take two lines at the floor
            bh = (96 if landscape else 124) * u
            bw = min(w - 24 * u, 640 * u)
            self.banner.size = (bw, bh)
            self.banner.pos = ((w - bw) / 2, 10 * u)
            self.prompt.size_hint_y = 0.5 if landscape else 0.4
            self.caption.size_hint_y = 1 - self.prompt.size_hint_y
        self.banner.padding = (14 * u, 8 * u)
        self.banner.radius = 18 * u
        self.prompt.font_size = (30 if landscape else 28) * u
        self.prompt.min_font = max(floor, 22 * u)
        self.caption.font_size = max(floor, (19 if landscape else 20) * u)
        self.caption.min_font = floor
        table = self.hand_table
        if beside and table is not None:
            table.pos, table.size = (0, 0), (w - bw - 16 * u, h)
        elif table is not None:
            top = bh + 16 * u
            table.pos, table.size = (0, top), (w, h - top)
        if self.view is not None:
            top = bh + 16 * u
            self.view.pos = (0, top)
            self.view.size = (w, h - top)

    # ------------------------------------------------------------------ touches
    def on_touch_down(self, touch) -> bool:
        touch.ud["attract"] = True
        self.app.lobby.wake()
        return True  # the demo's cards never see the touch that wakes the kiosk

    def on_touch_move(self, touch) -> bool:
        return True

    def on_touch_up(self, touch) -> bool:
        return True
