"""The operator's screens: the PIN keypad and the menu behind it.

Visitors never see a way in: the keypad opens only after a finger rests for 5 s in the top
left corner of the welcome screen or the picker (:mod:`kiosk.lobby`). A wrong PIN shakes the
dots and clears them, with no hint; after five wrong tries the keypad locks, for a minute the
first time and twice as long each time after that, across restarts
(:class:`kiosk.settings.operator.PinGuard`); the message counts the seconds down. The menu's pages: statistics, status (play log, buttons,
configuration problems), export to a USB stick, games and language, system (restart,
reboot, shut down, maintenance console). Like every screen, the menu returns to the welcome
screen after the idle timeout.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.records import export as export_mod
from kiosk.records import stats as stats_mod
from kiosk.screens.operator_scroll import TouchScroll
from kiosk.screens.text_fit import TOUCH_GAP, FitLabel
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import (
    GOLD,
    INK_DARK,
    ButtonGrid,
    Felt,
    KButton,
    Panel,
    Wrapped,
    fit_font,
    lit_in_dark_ink,
)
from kiosk.settings import overrides, variants
from kiosk.settings.operator import CommandResult
from kiosk.solving import deals

from ..i18n import LANGUAGE_NAMES, LANGUAGES, game_text

log = logging.getLogger("kiosk.operator")

AMBER = (1.0, 0.78, 0.35, 1)
GREEN_OK = (0.55, 0.95, 0.6, 1)
KEY_BG = (1, 1, 1, 0.14)
KEY_DOWN = (1, 1, 1, 0.36)
ACTION_BG = (0.98, 0.76, 0.25, 0.92)
DANGER_BG = (0.85, 0.3, 0.25, 0.9)
CONFIRM_SECONDS = 4.0


def minutes(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}%"


class PinScreen(Screen):
    """A big keypad. ``purpose``: ``"menu"`` opens the operator menu, ``"maintenance"``
    leaves the app for the maintenance console."""

    MAX_DIGITS = 8

    def __init__(self, **kw) -> None:
        super().__init__(name="pin", **kw)
        self.purpose = "menu"
        self.entered = ""
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        fixed = {"size_hint": (None, None), "halign": "center", "valign": "middle"}
        self.title = Label(bold=True, color=GOLD, **fixed)
        self.prompt = Label(color=(1, 1, 1, 0.95), **fixed)
        self.field = Panel(size_hint=(None, None), fill=(0, 0, 0, 0.35))
        self.dots = Label(color=(1, 1, 1, 1), halign="center", valign="middle")
        self.field.add_widget(self.dots)
        self.message = Label(color=AMBER, **fixed)
        self.keypad = GridLayout(cols=3, size_hint=(None, None))
        self.keys: dict[str, KButton] = {}
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok"):
            b = KButton(color=(1, 1, 1, 1), bg=KEY_BG, bg_down=KEY_DOWN)
            if key == "ok":
                b.bg, b.bg_down, b.color = ACTION_BG, (1, 0.9, 0.5, 1), INK_DARK
            b.bind(on_release=lambda _b, k=key: self.press(k))
            self.keys[key] = b
            self.keypad.add_widget(b)
        self.cancel = KButton(color=(1, 1, 1, 1), size_hint=(None, None))
        self.cancel.bind(on_release=lambda *_: self.leave())
        for w in (self.title, self.prompt, self.field, self.message, self.keypad, self.cancel):
            root.add_widget(w)
        self.add_widget(root)
        self._tick = None
        self.bind(size=self._arrange)

    @property
    def app(self):
        return App.get_running_app()

    # ------------------------------------------------------------------ flow
    def open(self, purpose: str = "menu") -> None:
        self.purpose = purpose
        self.entered = ""
        self.message.text = ""
        self.retranslate()
        self._show()
        self._check_lock()

    def leave(self) -> None:
        self.entered = ""
        self._stop_tick()
        if self.purpose == "maintenance":
            self.app.show_operator("system")
        else:
            self.app.go_welcome()

    def press(self, key: str) -> None:
        guard = self.app.pin_guard
        if guard.locked():
            self._check_lock()
            return
        if key == "back":
            self.entered = self.entered[:-1]
        elif key == "ok":
            self.submit()
            return
        elif len(self.entered) < self.MAX_DIGITS:
            self.entered += key
        self._show()

    def submit(self) -> None:
        entered, self.entered = self.entered, ""
        outcome = self.app.pin_guard.check(entered)
        self._show()
        if outcome == "ok":
            self.message.text = ""
            if self.purpose == "maintenance":
                self.app.system.maintenance()
            else:
                self.app.show_operator()
        elif outcome == "locked":
            self._check_lock()
        else:
            self.shake()

    def shake(self) -> None:
        """No hint about the PIN: the dots wobble and clear."""
        if not self.app.animate:
            return
        f = self.field
        x = f.x
        amp = max(8.0, f.width * 0.04)
        Animation.cancel_all(f, "x")
        (Animation(x=x - amp, d=0.05) + Animation(x=x + amp, d=0.08)
         + Animation(x=x - amp / 2, d=0.07) + Animation(x=x, d=0.05)).start(f)

    def _check_lock(self, *_a) -> None:
        guard = self.app.pin_guard
        locked = guard.locked()
        for b in self.keys.values():
            b.disabled = locked
            b.opacity = 0.35 if locked else 1
        if locked:
            self.message.text = self.app.tr("Too many wrong tries. Try again in {seconds} s.",
                                            seconds=guard.seconds_left())
            if self._tick is None:
                self._tick = Clock.schedule_interval(self._check_lock, 1.0)
        else:
            if self._tick is not None:
                self.message.text = ""
            self._stop_tick()

    def _stop_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def on_leave(self, *_a) -> None:
        self._stop_tick()
        self.entered = ""

    # ------------------------------------------------------------------ drawing
    def _show(self) -> None:
        self.dots.text = " ".join("•" * len(self.entered)) if self.entered else ""

    def retranslate(self) -> None:
        tr = self.app.tr
        self.title.text = tr("Operator") if self.purpose == "menu" else tr("Maintenance console")
        self._arrange()  # the title's size follows its words
        self.prompt.text = tr("Enter the PIN")
        self.cancel.text = tr("Cancel")
        self.keys["ok"].text = tr("OK")
        self.keys["back"].text = "←"
        for k, b in self.keys.items():
            if k.isdigit():
                b.text = k
        if self.app.pin_guard.locked():
            self._check_lock()

    def _arrange(self, *_a) -> None:
        w, h = self.size
        if w < 10:
            return
        u = min(w, h) / 480
        landscape = w >= h
        if landscape:
            left_w = w * 0.44
            pad_w = min(w - left_w - 30 * u, 380 * u)
            pad_h = h - 40 * u
            self.keypad.size = (pad_w, pad_h)
            self.keypad.pos = (w - pad_w - 20 * u, 20 * u)
            cx, top = left_w / 2 + 10 * u, h - 40 * u
            col_w = left_w - 20 * u
        else:
            pad_w = w - 60 * u
            pad_h = min(h * 0.5, 4 * 120 * u)
            self.keypad.size = (pad_w, pad_h)
            self.keypad.pos = ((w - pad_w) / 2, 40 * u)
            cx, top = w / 2, h - 60 * u
            col_w = w - 40 * u
        self.keypad.spacing = 10 * u
        for k, b in self.keys.items():
            b.font_size = (30 if k.isdigit() or k == "back" else 24) * u * (1 if landscape
                                                                              else 1.05)
        self.title.font_size = fit_font(self.title.text, 34 * u, col_w - 4, bold=True)
        self.title.size = (col_w, 56 * u)
        self.title.text_size = (col_w, None)
        self.title.center_x, self.title.top = cx, top
        self.prompt.font_size = 20 * u
        self.prompt.size = (col_w, 36 * u)
        self.prompt.text_size = (col_w, None)
        self.prompt.center_x, self.prompt.top = cx, self.title.y - 6 * u
        self.field.size = (min(col_w, 300 * u), 70 * u)
        self.field.radius = 14 * u
        self.field.center_x, self.field.top = cx, self.prompt.y - 14 * u
        self.dots.font_size = 40 * u
        self.message.font_size = 17 * u
        self.message.size = (col_w, 60 * u)
        self.message.text_size = (col_w, None)
        self.message.center_x, self.message.top = cx, self.field.y - 8 * u
        self.cancel.font_size = 20 * u
        self.cancel.size = (min(col_w, 220 * u), 60 * u)
        if landscape:
            self.cancel.center_x, self.cancel.y = cx, 20 * u
        else:
            self.cancel.center_x, self.cancel.top = cx, self.message.y - 10 * u


class OperatorScreen(Screen):
    """The operator menu: one page at a time, picked from tabs."""

    PAGES = ("stats", "status", "export", "games", "system")
    TITLES = {"stats": "Statistics", "status": "Status", "export": "Export",
              "games": "Games", "system": "System"}

    def __init__(self, **kw) -> None:
        super().__init__(name="operator", **kw)
        self.page = "stats"
        self.stats_scope = "today"
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.title = Label(bold=True, color=GOLD, halign="left", valign="middle",
                           size_hint=(None, None))
        #: the kiosk's name beside the title: the operator's own words, shortened if long
        self.kiosk_name = Label(color=(1, 1, 1, 0.7), halign="left", valign="middle",
                                size_hint=(None, None), shorten=True, shorten_from="right")
        self.close = KButton(color=(1, 1, 1, 1), size_hint=(None, None))
        self.close.bind(on_release=lambda *_: self.app.go_welcome())
        self.tabs = BoxLayout(size_hint=(None, None))
        self.tab_buttons: dict[str, KButton] = {}
        for page in self.PAGES:
            b = lit_in_dark_ink(KButton(color=(1, 1, 1, 1), bg=(1, 1, 1, 0.1)))
            b.bind(on_release=lambda _b, p=page: self.show(p))
            self.tab_buttons[page] = b
            self.tabs.add_widget(b)
        self.panel = Panel(orientation="vertical", size_hint=(None, None))
        for w in (self.title, self.kiosk_name, self.close, self.tabs, self.panel):
            root.add_widget(w)
        self.add_widget(root)
        # state of the pages
        self.export_state: dict[str, Any] = {"running": False, "line": "", "result": "",
                                             "error": False}
        self.games_note = ""
        self.system_note = ""
        self._confirm: dict[str, Any] = {}
        self._full_order: list[str] = []
        self.widgets: dict[str, Any] = {}
        self._built_page = ""
        self._keep_offset: float | None = None
        self.bind(size=self._arrange)

    @property
    def app(self):
        return App.get_running_app()

    @property
    def u(self) -> float:
        return min(self.size) / 480 if min(self.size) > 0 else 1.0

    # ------------------------------------------------------------------ pages
    def open(self, page: str = "stats") -> None:
        self.games_note = ""
        self.system_note = ""
        self._confirm.clear()
        self._full_order = []
        self.show(page)

    def show(self, page: str) -> None:
        if page not in self.PAGES:
            page = "stats"
        self.page = page
        self._built_page = ""  # a page opened from its tab starts at its top
        for p, b in self.tab_buttons.items():
            b.selected = p == page
        self.rebuild()

    def retranslate(self) -> None:
        tr = self.app.tr
        self._title()
        self.close.text = tr("Close")
        for p, b in self.tab_buttons.items():
            b.text = tr(self.TITLES[p])
        self._fit_tabs()
        if self.manager is not None and self.manager.current == self.name:
            self.rebuild()

    def _fit_tabs(self) -> None:
        u = self.u
        landscape = self.width >= self.height
        n = len(self.tab_buttons)
        room = (self.tabs.width if landscape else
                (self.tabs.width - self.tabs.spacing * (n - 1)) / n) - 16
        size = min(fit_font(b.text, (20 if landscape else 17) * u, room)
                   for b in self.tab_buttons.values())
        for b in self.tab_buttons.values():
            b.font_size = size

    def _title(self) -> None:
        """The title, at a size that fits half the header, and the kiosk's name after it."""
        w, h = self.size
        if w < 10:
            return
        u = self.u
        head = 62 * u
        room = w - self.close.width - 40 * u
        self.title.text = self.app.tr("Operator menu")
        self.title.font_size = fit_font(self.title.text, (26 if w >= h else 22) * u,
                                        room * 0.62, bold=True)
        self.title.text_size = (None, None)  # measured on one line, not in the last width
        self.title.texture_update()
        self.title.size = (min(self.title.texture_size[0] + 4, room * 0.62), head)
        self.title.text_size = self.title.size
        self.title.pos = (16 * u, h - head)
        self.kiosk_name.text = self.app.cfg.name
        self.kiosk_name.font_size = 18 * u
        self.kiosk_name.size = (max(1, room - self.title.width - 14 * u), head)
        self.kiosk_name.text_size = self.kiosk_name.size
        self.kiosk_name.pos = (self.title.right + 14 * u, h - head)

    def rebuild(self) -> None:
        body = self.panel
        scrolled = next((w for w in body.walk(restrict=True) if isinstance(w, TouchScroll)),
                        None)
        # the same page again (a saved change): its list stays where the operator was
        self._keep_offset = scrolled.offset if scrolled is not None and \
            self._built_page == self.page else None
        self._built_page = self.page
        body.clear_widgets()
        self.widgets = {}
        u = self.u
        body.padding = (16 * u, 12 * u)
        body.spacing = 10 * u
        try:
            getattr(self, f"_page_{self.page}")(body, u)
        except Exception:  # noqa: BLE001 - a page bug must not end the menu
            log.exception("operator page %s failed", self.page)
            body.clear_widgets()
            body.add_widget(self._text(self.app.tr("This page cannot be shown."), u))

    # ------------------------------------------------------------------ helpers
    def _text(self, text: str, u: float, *, size: float = 17, color=(1, 1, 1, 0.95),
              bold: bool = False) -> Wrapped:
        return Wrapped(text=text, font_size=size * u, color=color, bold=bold)

    def _path_text(self, text: str, u: float, *, size: float = 17,
                   color=(1, 1, 1, 0.95)) -> FitLabel:
        """A line holding a file path: broken where Unicode allows (after a "/"), because
        Kivy's own wrapping breaks only at spaces and cut "config.toml" into "con / fig"
        when the path is longer than the portrait screen is wide."""
        return FitLabel(text=text, font_size=size * u, color=color, mode="grow",
                        size_hint_y=None)

    def _button(self, text: str, u: float, action, *, bg=ACTION_BG, color=INK_DARK,
                height: float = 62, size: float = 20) -> KButton:
        b = KButton(text=text, color=color, bg=bg, bg_down=(1, 0.9, 0.5, 1), font_size=size * u,
                    size_hint_y=None, height=height * u)
        b.bind(on_release=lambda *_: action())
        return b

    def _scroll(self, content: Widget, u: float) -> TouchScroll:
        sv = TouchScroll(do_scroll_x=False, bar_width=8 * u, scroll_type=["bars", "content"],
                         effect_cls="ScrollEffect")
        sv.add_widget(content)
        if self._keep_offset:
            sv.hold_offset(self._keep_offset)
        return sv

    def _column(self, u: float) -> BoxLayout:
        col = BoxLayout(orientation="vertical", size_hint_y=None, spacing=8 * u)
        col.bind(minimum_height=col.setter("height"))
        return col

    # ------------------------------------------------------------------ statistics
    def _page_stats(self, body: BoxLayout, u: float) -> None:
        """The solitaires' plays and win rates, then what counts at the tables against the
        computer: matches, hands won, lost and tied, and Draw Poker's chips, by level."""
        tr = self.app.tr
        row = BoxLayout(size_hint_y=None, height=52 * u, spacing=10 * u)
        for scope, text in (("today", tr("Today")), ("all", tr("All time"))):
            b = lit_in_dark_ink(KButton(text=text, color=(1, 1, 1, 1), bg=(1, 1, 1, 0.1),
                                        font_size=19 * u))
            b.selected = scope == self.stats_scope
            b.bind(on_release=lambda _b, s=scope: self._set_scope(s))
            row.add_widget(b)
        body.add_widget(row)
        data = self.app.statistics()
        if data is None:
            body.add_widget(self._text(tr("The play log is not available."), u))
            body.add_widget(Widget())
            return
        scope = self.stats_scope
        games = [(g, s[scope]) for g, s in data["games"].items()
                 if s[scope]["plays"] and not stats_mod.against_the_computer(g)]
        seated = [e for e in (data.get("against_computer_today" if scope == "today" else
                                       "against_computer") or {}).values()
                  if e.get("hands") or e.get("matches")]
        table = self._column(u)
        table.spacing = 2 * u
        if not games and not seated:
            table.add_widget(self._text(tr("No games played yet.") if scope == "all"
                                        else tr("No games played today."), u))
        if games:
            self._solitaire_rows(table, data.get("solitaires", data["total"])[scope], games, u)
        if seated:
            self._seated_rows(table, seated, u)
        body.add_widget(self._scroll(table, u))
        self.widgets["stats_rows"] = len(games)
        self.widgets["seated_rows"] = len(seated)
        note = tr("Demo games are not counted.")
        if not data.get("clock_synced", True):
            note += " " + tr("The clock is not synchronised: today counts this start only.")
        body.add_widget(self._text(note, u, size=14, color=(1, 1, 1, 0.6)))

    STATS_WIDTHS = (0.40, 0.12, 0.12, 0.15, 0.21)

    def _solitaire_rows(self, table: BoxLayout, total: dict[str, Any],
                        games: list[tuple[str, dict[str, Any]]], u: float) -> None:
        tr, widths = self.app.tr, self.STATS_WIDTHS
        heads = (tr("Game"), tr("Plays"), tr("Wins"), tr("Win rate"), tr("Median time"))
        table.add_widget(self._stats_row(heads, widths, u, head=True))
        table.add_widget(self._stats_row(
            (tr("All games"), str(total["plays"]), str(total["wins"]),
             percent(total["win_rate"]), minutes(total["median_time"])), widths, u, gold=True))
        order = {g: k for k, g in enumerate(self.app.all_game_ids())}
        games.sort(key=lambda gs: (-gs[1]["plays"], order.get(gs[0], 999)))
        for game_id, s in games:
            table.add_widget(self._stats_row(
                (self._game_name(game_id), str(s["plays"]), str(s["wins"]),
                 percent(s["win_rate"]), minutes(s["median_time"])), widths, u))

    def _seated_rows(self, table: BoxLayout, entries: list[dict[str, Any]], u: float) -> None:
        """One block per game and computer level, in sentences that wrap (a table of eight
        narrow columns cannot be read in Russian at 800x480)."""
        tr = self.app.tr
        table.add_widget(Widget(size_hint_y=None, height=10 * u))
        table.add_widget(self._text(tr("Against the computer"), u, size=18, color=GOLD,
                                    bold=True))
        order = {g: k for k, g in enumerate(self.app.all_game_ids())}
        levels = list(variants.LEVELS)
        entries = sorted(entries, key=lambda e: (order.get(e.get("game"), 999),
                                                 str(e.get("game")),
                                                 levels.index(e["level"]) if e.get("level")
                                                 in levels else 99, str(e.get("level"))))
        for e in entries:
            level = e.get("level")
            level_name = tr(variants.LEVELS[level][0]) if level in variants.LEVELS else \
                (level or "?")
            block = self._column(u)
            block.spacing = 2 * u
            block.padding = (0, 6 * u, 0, 4 * u)
            block.add_widget(self._text(f"{self._game_name(e.get('game') or '?')} · "
                                        f"{level_name}", u, bold=True))
            lines = [tr("Matches played to the end: {n}, won by the visitor: {won}",
                        n=e["matches"], won=e["matches_won"]),
                     tr("Hands: {n}; the visitor won {won}, lost {lost}, tied or split {tied}",
                        n=e["hands"], won=e["hands_won"], lost=e["hands_lost"],
                        tied=e["hands_drawn"])]
            if "chips_won" in e:
                lines.append(tr("Chips: the visitor won {won} and lost {lost}",
                                won=e["chips_won"], lost=e["chips_lost"]))
            for line in lines:
                block.add_widget(self._text(line, u, size=16, color=(1, 1, 1, 0.85)))
            table.add_widget(block)

    def _game_name(self, game_id: str) -> str:
        return game_text(self.app.catalog_entry(game_id), "names", self.app.lang) or game_id

    def _stats_row(self, cells, widths, u: float, *, head: bool = False,
                   gold: bool = False) -> BoxLayout:
        """A row of the solitaires' table; the game's name wraps to as many lines as it
        needs (never shortened), and the row grows with it."""
        row = BoxLayout(size_hint_y=None, height=(34 if head else 38) * u, spacing=6 * u,
                        padding=(0, 0, 16 * u, 0))
        color = GOLD if gold else (1, 1, 1, 0.7 if head else 0.95)
        size = (15 if head else 17) * u
        for k, (text, wd) in enumerate(zip(cells, widths, strict=True)):
            # every cell wraps and shrinks a little rather than lose letters ("Пар…" for
            # "Партии" in a portrait column); the name breaks where Unicode allows
            lab = FitLabel(text=text, size_hint_x=wd, font_size=size, bold=head or gold,
                           color=color, mode="grow", pad_y=4 * u, min_font=size * 0.8,
                           halign="left" if k == 0 else "right", words_only=k > 0,
                           size_hint_y=None, pos_hint={"center_y": 0.5})
            lab.bind(height=lambda _lab, _h, r=row, base=row.height: self._fit_row(r, base))
            row.add_widget(lab)
        return row

    @staticmethod
    def _fit_row(row: BoxLayout, base: float) -> None:
        row.height = max([base, *(c.height for c in row.children)])

    def _set_scope(self, scope: str) -> None:
        self.stats_scope = scope
        self.rebuild()

    # ------------------------------------------------------------------ status
    def _page_status(self, body: BoxLayout, u: float) -> None:
        app, tr = self.app, self.app.tr
        col = self._column(u)

        def item(label: str, value: str, color=(1, 1, 1, 0.95), path: bool = False) -> None:
            col.add_widget(self._text(label, u, size=15, color=(1, 1, 1, 0.6), bold=True))
            text = self._path_text if path else self._text
            col.add_widget(text(value, u, color=color))

        status = app.log_status()
        if status is None:
            item(tr("Play log"), tr("Not in use."), AMBER)
        else:
            state = tr("OK") if status.ok else tr("Degraded")
            text = app.translator.sentences(status.parts) if status.parts else \
                app.tr_reason(status.message)
            item(tr("Play log"), f"{state}: {text}",
                 GREEN_OK if status.ok else AMBER)
            for note in status.notes:
                col.add_widget(self._text(app.tr_reason(note), u, color=AMBER))
            col.add_widget(self._path_text(str(app.lobby.playlog.path), u, size=14,
                                           color=(1, 1, 1, 0.6)))
        from kiosk.fleet import status_panel  # the fleet's lines (issue 26), when configured

        status_panel.add_to(self, col, u, GREEN_OK, AMBER)
        buttons = app.lobby.buttons
        if buttons is not None and buttons.available:
            item(tr("Hardware buttons"), tr("Connected."), GREEN_OK)
        else:
            item(tr("Hardware buttons"),
                 tr("Not available: the keys N and U do their jobs."), AMBER)
        cfg = app.cfg
        source = str(cfg.path) if cfg.path else tr("Built-in defaults")
        problems = app.config_problems()
        item(tr("Configuration"), source, path=True)
        if problems:
            col.add_widget(self._text(app.trn("{n} problem; the default is used for this key:",
                                              "{n} problems; the defaults are used for these "
                                              "keys:", len(problems)), u, color=AMBER))
            for problem in problems:
                col.add_widget(self._path_text("• " + problem, u, size=15, color=AMBER))
        else:
            col.add_widget(self._text(tr("No problems."), u, color=GREEN_OK))
        from .. import __version__

        item(tr("Version"), __version__)
        body.add_widget(self._scroll(col, u))
        self.widgets["problems"] = problems

    # ------------------------------------------------------------------ export
    def _page_export(self, body: BoxLayout, u: float) -> None:
        """In a list like the other pages: the explanation, the button and the result
        stay inside the panel in every language and size (the Russian text pushed the first
        line above it)."""
        tr = self.app.tr
        col = self._column(u)
        col.spacing = 10 * u
        col.add_widget(self._text(tr("Copies every game played (plays.csv) and every move "
                                     "(moves.csv) to a USB stick."), u))
        col.add_widget(self._text(tr("Use a stick formatted as FAT32 or exFAT. The files go "
                                     "into a folder named after this kiosk and the time."),
                                  u, size=15, color=(1, 1, 1, 0.65)))
        st = self.export_state
        button = self._button(tr("Export to the USB stick"), u, self.start_export, height=70,
                              size=22)
        button.disabled = st["running"]
        button.opacity = 0.5 if st["running"] else 1
        col.add_widget(button)
        line = self._text(st["line"], u, color=(1, 1, 1, 0.9))
        result = self._text(st["result"], u, size=18, color=AMBER if st["error"] else GREEN_OK,
                            bold=True)
        col.add_widget(line)
        col.add_widget(result)
        body.add_widget(self._scroll(col, u))
        self.widgets["export_line"] = line
        self.widgets["export_result"] = result

    def start_export(self) -> None:
        st = self.export_state
        if st["running"]:
            return
        app, tr = self.app, self.app.tr
        st.update(running=True, line=tr("Looking for a USB stick…"), result="", error=False)
        self.rebuild()
        db = app.log_path()
        cfg = app.cfg

        def progress(done: int, total: int) -> None:
            Clock.schedule_once(lambda _dt: self._export_progress(done, total), 0)

        def work() -> None:
            try:
                if db is None:
                    raise export_mod.ExportError("The play log is not available.")
                res = export_mod.export_to_usb(db, configured=cfg.export.usb_mount,
                                               kiosk_name=cfg.name, progress=progress)
                outcome: tuple[bool, Any] = (True, res)
            except export_mod.ExportError as err:
                outcome = (False, str(err))
            except Exception as err:  # noqa: BLE001 - never a traceback on the screen
                log.exception("export failed")
                outcome = (False, f"Export failed: {err}")
            Clock.schedule_once(lambda _dt: self._export_done(*outcome), 0)

        app.flush_log()
        self.export_thread = threading.Thread(target=work, name="kiosk-export", daemon=True)
        self.export_thread.start()

    def _export_progress(self, done: int, total: int) -> None:
        st = self.export_state
        st["line"] = self.app.trn("Writing… {done} of {n} row", "Writing… {done} of {n} rows",
                                  total, done=done)
        lab = self.widgets.get("export_line")
        if lab is not None:
            lab.text = st["line"]

    def _export_done(self, ok: bool, result: Any) -> None:
        st = self.export_state
        st["running"] = False
        if ok:
            st["rows"] = result.rows
            st["line"] = str(result.directory)
            st["result"] = self.app.trn("Done: {n} row written. You can take the stick out now.",
                                        "Done: {n} rows written. You can take the stick out now.",
                                        result.rows)
            st["error"] = False
        else:
            st["line"] = ""
            st["result"] = self.app.tr_reason(str(result))
            st["error"] = True
        if self.page == "export":
            self.rebuild()

    # ------------------------------------------------------------------ games
    def _page_games(self, body: BoxLayout, u: float) -> None:
        app, tr = self.app, self.app.tr
        body.add_widget(self._text(tr("Language at start and on the welcome screen"), u,
                                   size=15, color=(1, 1, 1, 0.6), bold=True))
        row = BoxLayout(size_hint_y=None, height=54 * u, spacing=8 * u)
        for lang in LANGUAGES:
            b = lit_in_dark_ink(KButton(text=LANGUAGE_NAMES[lang], color=(1, 1, 1, 1),
                                        bg=(1, 1, 1, 0.1), font_size=19 * u))
            b.selected = lang == app.cfg.language
            b.bind(on_release=lambda _b, code=lang: self._set_language(code))
            row.add_widget(b)
        body.add_widget(row)
        enabled = app.game_ids()
        body.add_widget(self._text(tr("Games in the picker ({on} of {all})", on=len(enabled),
                                      all=len(app.all_game_ids())), u, size=15,
                                   color=(1, 1, 1, 0.6), bold=True))
        if not self._full_order:
            self._full_order = self.full_order(enabled, app.all_game_ids())
        # one column of wide rows: every name whole on one line, in every language (two
        # columns cut "Канфилд (Дем…" at 800x480); a name that still needs two lines wraps
        grid = GridLayout(cols=1, size_hint_y=None, spacing=(10 * u, 8 * u),
                          row_default_height=56 * u, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        toggles, winnable = {}, {}
        for game_id in self._full_order:
            on = game_id in enabled
            # the mark is glued to the name by a no-break space: it never stands alone
            b = KButton(text=("✓\u00a0" if on else "") + self._game_name(game_id),
                        halign="left", color=INK_DARK if on else (1, 1, 1, 0.75),
                        bg=(0.98, 0.76, 0.25, 0.88) if on else (1, 1, 1, 0.08),
                        bg_down=(1, 0.9, 0.5, 1), font_size=17 * u, min_font=14 * u,
                        words_only=False, inset=10 * u)
            b.bind(on_release=lambda _b, g=game_id: self.toggle_game(g))
            toggles[game_id] = b
            cell = BoxLayout(spacing=TOUCH_GAP * u)
            cell.add_widget(b)
            w = self._winnable_button(game_id, u)
            if w is not None:
                cell.add_widget(w)
                winnable[game_id] = w
            grid.add_widget(cell)
        content = self._column(u)
        content.add_widget(grid)
        self._variant_rows(content, u)
        body.add_widget(self._scroll(content, u))
        self.widgets["toggles"] = toggles
        self.widgets["winnable"] = winnable
        if winnable:
            body.add_widget(self._text(tr("Winnable: only deals the solver has won. Any deal: "
                                          "every deal, some cannot be won."), u, size=14,
                                       color=(1, 1, 1, 0.6)))
        if self.games_note:
            body.add_widget(self._text(self.games_note, u, size=15, color=(1, 1, 1, 0.7)))

    @staticmethod
    def full_order(enabled: list[str], every: list[str]) -> list[str]:
        """Every game, the enabled ones in the picker's order, each disabled one right after
        the game it follows in the default order (so switching it on puts it back there)."""
        full = list(enabled)
        for k, game_id in enumerate(every):
            if game_id in full:
                continue
            before = next((g for g in reversed(every[:k]) if g in full), None)
            full.insert(full.index(before) + 1 if before is not None else 0, game_id)
        return full

    def toggle_game(self, game_id: str) -> None:
        app, tr = self.app, self.app.tr
        enabled = set(app.game_ids())
        if game_id in enabled:
            if len(enabled) == 1:
                self.games_note = tr("At least one game must stay in the picker.")
                self.rebuild()
                return
            enabled.discard(game_id)
        else:
            enabled.add(game_id)
        order = [g for g in self._full_order if g in enabled]
        self.games_note = self._saved_note(app.set_enabled_games(order))
        self.rebuild()

    def _variant_rows(self, column: BoxLayout, u: float) -> None:
        """The named variants the visitors' variant sheet offers, per game: a tap on a
        variant goes off -> offered -> default -> off (one stays offered; the default is
        offered). A game offering one variant deals it without the sheet."""
        app, tr = self.app, self.app.tr
        column.add_widget(self._text(tr("Variants before the deal (★ the default)"), u,
                                     size=15, color=(1, 1, 1, 0.6), bold=True))
        buttons: dict[tuple[str, str], KButton] = {}
        for game_id in variants.with_variants():
            offer = {v.key for v in variants.offered(app.cfg, game_id)}
            chosen = variants.default(app.cfg, game_id)
            name = game_text(app.catalog_entry(game_id), "names", app.lang) or game_id
            column.add_widget(self._text(name, u, size=15, color=(1, 1, 1, 0.9)))
            grid = self._choice_grid(u)
            for v in variants.variants_of(game_id):
                star = chosen is not None and v.key == chosen.key
                b = self._choice(tr(v.name), star, v.key in offer, u)
                b.bind(on_release=lambda _b, g=game_id, k=v.key: self.cycle_variant(g, k))
                buttons[(game_id, v.key)] = b
                grid.add_widget(b)
            column.add_widget(grid)
            if variants.levels_beside(game_id):
                self._level_row(column, game_id, u)
        self.widgets["variants"] = buttons

    def _level_row(self, column: BoxLayout, game_id: str, u: float) -> None:
        """A game whose sheet asks another question first (Draw Poker: how many opponents)
        shows the computer's levels as a row of their own; here the operator picks the
        level that row starts on (★), like the other games' default level."""
        tr = self.app.tr
        chosen = variants.default_level(self.app.cfg, game_id)
        column.add_widget(self._text(tr("How well the computer plays (★ at the start)"), u,
                                     size=14, color=(1, 1, 1, 0.7)))
        grid = self._choice_grid(u)
        buttons = self.widgets.setdefault("levels", {})
        for v in variants.levels_beside(game_id):
            on = v.key == chosen
            b = self._choice(tr(v.name), on, on, u)
            b.bind(on_release=lambda _b, g=game_id, k=v.key: self.set_level(g, k))
            buttons[(game_id, v.key)] = b
            grid.add_widget(b)
        column.add_widget(grid)

    @staticmethod
    def _choice_grid(u: float) -> ButtonGrid:
        """Rows of a game's choices (variants, levels): as many a row as fit a finger."""
        return ButtonGrid(spacing=TOUCH_GAP * u, min_cell=120 * u, row_default_height=50 * u,
                          row_force_default=True)

    @staticmethod
    def _choice(text: str, star: bool, on: bool, u: float) -> KButton:
        """One choice: gold with dark ink when offered (on), ★ before the one chosen first."""
        return KButton(text=("★ " if star else "") + text,
                       color=INK_DARK if on else (1, 1, 1, 0.75),
                       bg=(0.98, 0.76, 0.25, 0.88) if on else (1, 1, 1, 0.08),
                       bg_down=(1, 0.9, 0.5, 1), font_size=14 * u, min_font=11 * u)

    def set_level(self, game_id: str, level: str) -> None:
        """The level the visitors' level row starts on for ``game_id``; saved like every
        other change of the menu, used from the next time a visitor picks the game."""
        app = self.app
        app.cfg.game_options.setdefault(game_id, {})[overrides.LEVEL_KEY] = level
        self.games_note = self._saved_note(overrides.save(app.cfg, app.lobby_data_dir(),
                                                          levels={game_id: level}))
        self.rebuild()

    def cycle_variant(self, game_id: str, key: str) -> None:
        """off -> offered -> default -> off, for one variant of ``game_id``."""
        app = self.app
        keys = [v.key for v in variants.variants_of(game_id)]
        offer = [v.key for v in variants.offered(app.cfg, game_id)]
        chosen = variants.default(app.cfg, game_id)
        default = chosen.key if chosen else keys[0]
        if key not in offer:
            offer.append(key)
        elif key != default:
            default = key
        elif len(offer) > 1:
            offer.remove(key)
            default = next(k for k in keys if k in offer)
        offer = [k for k in keys if k in offer]
        self.games_note = self._saved_note(app.set_variants(game_id, offer, default))
        self.rebuild()

    def _winnable_button(self, game_id: str, u: float) -> KButton | None:
        """The "winnable deals only" switch of one game; None for a game without a deal
        list (it can only deal any deal)."""
        app = self.app
        if not deals.list_path(game_id, app.cfg.options_for(game_id)).is_file():
            return None
        on, _why = app.cfg.winnable(game_id)
        b = KButton(text=app.tr("Winnable") if on else app.tr("Any deal"),
                    color=INK_DARK if on else (1, 1, 1, 0.75),
                    bg=(0.55, 0.85, 0.6, 0.9) if on else (1, 1, 1, 0.08),
                    bg_down=(1, 0.9, 0.5, 1), font_size=15 * u, min_font=13 * u,
                    size_hint_x=None, width=104 * u)
        b.bind(on_release=lambda _b, g=game_id: self.toggle_winnable(g))
        return b

    def toggle_winnable(self, game_id: str) -> None:
        on, _why = self.app.cfg.winnable(game_id)
        self.games_note = self._saved_note(self.app.set_winnable_only(game_id, not on))
        self.rebuild()

    def _set_language(self, lang: str) -> None:
        self.games_note = self._saved_note(self.app.set_default_language(lang))
        self.rebuild()

    def _saved_note(self, saved: Any) -> str:
        tr = self.app.tr
        if saved is None:
            return ""
        if saved.ok:
            return tr("Saved in {path}.", path=saved.path) if saved.path else ""
        return tr("Not saved ({reason}); the change lasts until the app restarts.",
                  reason=saved.message)

    # ------------------------------------------------------------------ system
    def _page_system(self, body: BoxLayout, u: float) -> None:
        tr = self.app.tr
        actions = (
            ("restart", tr("Restart the app"), tr("The kiosk starts again in a few seconds.")),
            ("reboot", tr("Reboot"), tr("The Pi starts again; about a minute.")),
            ("poweroff", tr("Shut down"),
             tr("Wait until the screen goes dark before you pull the plug.")),
            ("maintenance", tr("Maintenance console"),
             tr("Leaves the kiosk for a login prompt; asks for the PIN again.")),
        )
        grid = GridLayout(cols=2 if self.width >= self.height else 1, spacing=10 * u,
                          size_hint_y=None, row_default_height=118 * u, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        buttons = {}
        for key, title, hint in actions:
            box = BoxLayout(orientation="vertical", spacing=2 * u)
            confirming = key in self._confirm
            b = KButton(text=tr("Tap again to confirm") if confirming else title,
                        color=(1, 1, 1, 1) if confirming else INK_DARK,
                        bg=DANGER_BG if confirming else ACTION_BG, bg_down=(1, 0.9, 0.5, 1),
                        font_size=20 * u, size_hint_y=None, height=62 * u)
            b.bind(on_release=lambda _b, k=key: self.system_action(k))
            box.add_widget(b)
            lab = Label(text=hint, font_size=14 * u, color=(1, 1, 1, 0.65), size_hint_y=None,
                        height=48 * u, halign="center", valign="top")
            lab.bind(size=lambda lab_, sz: setattr(lab_, "text_size", sz))
            box.add_widget(lab)
            buttons[key] = b
            grid.add_widget(box)
        body.add_widget(self._scroll(grid, u))
        self.widgets["system"] = buttons
        note = self._text(self.system_note, u, size=18, color=AMBER, bold=True)
        body.add_widget(note)
        self.widgets["system_note"] = note

    def system_action(self, key: str) -> None:
        """First tap arms the button ("tap again to confirm"), the second does it."""
        if key not in self._confirm:
            for ev in self._confirm.values():
                ev.cancel()
            self._confirm.clear()
            self._confirm[key] = Clock.schedule_once(lambda _dt: self._disarm(key),
                                                     CONFIRM_SECONDS)
            self.rebuild()
            return
        self._confirm.pop(key).cancel()
        app, tr = self.app, self.app.tr
        system = app.system
        if key == "restart":
            self.system_note = tr("Restarting…")
            self.rebuild()
            system.restart_app()
        elif key == "maintenance":
            app.show_pin("maintenance")
        elif key in ("reboot", "poweroff"):
            self.system_note = tr("Rebooting…") if key == "reboot" else tr("Shutting down…")
            self.rebuild()
            run = system.reboot if key == "reboot" else system.poweroff
            run(lambda result: Clock.schedule_once(
                lambda _dt: self._system_done(key, result), 0))

    def _system_done(self, key: str, result: CommandResult) -> None:
        if result.ok:
            return  # systemd stops the kiosk in a moment
        tr = self.app.tr
        what = tr("Could not reboot") if key == "reboot" else tr("Could not shut down")
        self.system_note = f"{what}: {result.message}"
        if self.page == "system":
            self.rebuild()

    def _disarm(self, key: str) -> None:
        if self._confirm.pop(key, None) is not None and self.page == "system":
            self.rebuild()

    # ------------------------------------------------------------------ layout
    def _arrange(self, *_a) -> None:
        w, h = self.size
        if w < 10:
            return
        u = self.u
        landscape = w >= h
        head = 62 * u
        self.close.font_size = 20 * u
        self.close.size = (150 * u, 50 * u)
        self.close.pos = (w - self.close.width - 10 * u, h - head + (head - 50 * u) / 2)
        self._title()
        if landscape:
            tw = 160 * u
            self.tabs.orientation = "vertical"
            self.tabs.size = (tw, h - head - 10 * u)
            self.tabs.pos = (10 * u, 10 * u)
            self.tabs.spacing = 8 * u
            self.panel.size = (w - tw - 30 * u, h - head - 10 * u)
            self.panel.pos = (tw + 20 * u, 10 * u)
        else:
            th = 60 * u
            self.tabs.orientation = "horizontal"
            self.tabs.size = (w - 20 * u, th)
            self.tabs.pos = (10 * u, h - head - th - 4 * u)
            self.tabs.spacing = 6 * u
            self.panel.size = (w - 20 * u, h - head - th - 20 * u)
            self.panel.pos = (10 * u, 10 * u)
        self.panel.radius = 16 * u
        self._fit_tabs()
        if self.manager is not None and self.manager.current == self.name:
            self.rebuild()
