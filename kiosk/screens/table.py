"""The table screen: the game, a bar of big buttons and the sheets that cover it.

The bar sits at the right in landscape (height is what a 800x480 screen lacks) and at the
bottom in portrait. It shows the deal number, moves, time and the game's score, the live
"still winnable" line, the five big buttons (New deal, Undo, Hint, Rules, Home) and, when
legal, the game's own actions ("Close up", "Redeal" ...). Hints and the live verdict are
:mod:`kiosk.screens.hinting`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen

from games import Move
from games.engine.reason import Reason
from kiosk.screens.celebration import Cascade, cascade_over, fireworks
from kiosk.screens.rules_sheet import ACTION_BG, LOW_SHEETS, RulesSheet, Sheet, light_deck
from kiosk.screens.text_fit import (
    READ_PX,
    TOUCH_GAP,
    TOUCH_PX,
    FitLabel,
    fit,
    fit_slack,
    line_px,
    text_width,
)
from kiosk.screens.widgets import GOLD, INK_DARK, Felt, KButton, Toast
from kiosk.table.controller import NOTHING_TO_UNDO, TableController
from kiosk.table.table_view import MOVE_TIME, TableView
from kiosk.table.touch import TapResult

from .hinting import TableHelp

log = logging.getLogger("kiosk.screen")

AUTOPLAY_DELAY = MOVE_TIME + 0.05


def _kivy_timer(delay: float, fn: Callable[[], None]) -> Callable[[], None]:
    """The controller's autoplay runs on Kivy's clock (the main thread, like every input)."""
    return Clock.schedule_once(lambda _dt: fn(), delay).cancel


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class TableScreen(Screen):
    """One game at the table, driven by a :class:`TableController`.

    The screen's buttons ask the controller; what the screen does about a change (close a
    sheet, stop autoplay, say that there is nothing to undo) it does from the controller's
    events, so a hardware button or a key that asks the controller directly gets the same.
    """

    def __init__(self, **kw) -> None:
        super().__init__(name="table", **kw)
        self.ctl: TableController | None = None
        self.view: TableView | None = None
        self.root = FloatLayout()
        self.root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.add_widget(self.root)
        self.bar = BoxLayout(size_hint=(None, None))
        with self.bar.canvas.before:
            Color(0, 0, 0, 0.28)
            self._bar_bg = Rectangle()
        self.bar.bind(pos=self._fit_bar, size=self._fit_bar)
        # its height follows its lines (mode "grow"): the bar's buttons take the rest
        self.status = FitLabel(color=(1, 1, 1, 0.92), halign="left", valign="middle",
                               mode="grow", glue_numbers=True)
        self.help = TableHelp(self)
        self.help.verdict.bind(disabled=self._pad_verdict, height=self._pad_verdict)
        self.help.verdict.bind(height=self._size_column)
        self.buttons = {
            "new": KButton(color=(1, 1, 1, 1)),
            "undo": KButton(color=(1, 1, 1, 1)),
            "hint": self.help.button,
            "rules": KButton(color=(1, 1, 1, 1)),
            "home": KButton(color=(1, 1, 1, 1)),
        }
        self.buttons["new"].bind(on_release=lambda *_: self.new_deal("button"))
        self.buttons["undo"].bind(on_release=lambda *_: self.undo("button"))
        self.buttons["rules"].bind(on_release=lambda *_: self.show_rules())
        self.buttons["home"].bind(on_release=lambda *_: self.go_home())
        # the bar's spacing parts its buttons: each face fills its box (48 px at least)
        for b in (*self.buttons.values(), self.help.verdict):
            b.face_inset = 0
        self.action_box = BoxLayout(spacing=6)
        self.action_buttons: list[KButton] = []
        self.root.add_widget(self.bar)
        self.toast = Toast(color=(1, 1, 1, 1))
        self.root.add_widget(self.toast)
        self.sheet: Sheet | None = None
        #: the status line's parts, each with how much it matters (higher: kept longer)
        self._status_parts: dict[str, int] = {}
        #: the win's bouncing cards while they run (a tap ends them, then "You won!")
        self.cascade: Cascade | None = None
        self._sheet_kind = ""
        self._toast_ev = None
        self._tick = Clock.schedule_interval(self._update_status, 1.0)
        self.landscape = True
        self.bind(size=self._arrange)

    # ------------------------------------------------------------------ setup
    @property
    def app(self):
        return App.get_running_app()

    def start(self, controller: TableController) -> None:
        """Sit down at a table (a new controller: another game or a constructed one)."""
        handlers = dict(on_change=self._changed, on_won=self._won, on_over=self._over,
                        on_new_deal=self._dealt, on_undo=self._undone,
                        on_refused=self._refused, on_leave=self._left,
                        on_restore=self._restored)
        if self.ctl is not None:
            self.ctl.unbind(**handlers)
            self.ctl.cancel_autoplay()
        self.ctl = controller
        controller.bind(**handlers)
        controller.drive_autoplay(_kivy_timer, AUTOPLAY_DELAY, self._autoplay_hold)
        if self.view is None:
            self.view = TableView(controller, size_hint=(None, None))
            self.view.bind(on_result=self._result)
            self.root.add_widget(self.view, index=len(self.root.children) - 1)
        self.view.four_colour = self.app.four_colour
        self.view.animate = self.app.animate
        self.view.set_controller(controller)
        self.close_sheet()
        self.hush()
        self._arrange()
        self._changed("start")
        if controller.game.won:
            self._won(controller.game)
        elif controller.game.over:
            self._over(controller.game)

    def retranslate(self) -> None:
        tr = self.app.tr
        for key, text in (("new", "New deal"), ("undo", "Undo"), ("rules", "Rules"),
                          ("home", "Home")):
            self.buttons[key].text = tr(text)
        self.help.retranslate()
        self._fit_buttons()
        self._update_status()
        self._update_actions()
        if self.view is not None:  # pile labels are words in the current language
            self.view._layout_key = None
            self.view.sync(animate=False)
        if self.sheet is not None and self.ctl is not None:
            kind = self._sheet_kind
            self.close_sheet()
            {"rules": self.show_rules, "won": lambda: self._won(self.ctl.game, now=True),
             "nowin": lambda: self.help.no_win(count=False),
             "over": lambda: self._over(self.ctl.game)}.get(kind, lambda: None)()

    def _fit_bar(self, *_a) -> None:
        self._bar_bg.pos, self._bar_bg.size = self.bar.pos, self.bar.size

    def _arrange(self, *_a) -> None:
        w, h = self.size
        if w < 10:
            return
        u = min(w, h) / 480
        self.landscape = w >= h
        bar = self.bar
        bar.clear_widgets()
        self.action_box.clear_widgets()
        for wdg in (self.action_box, self.help.verdict, *self.buttons.values()):
            if wdg.parent:
                wdg.parent.remove_widget(wdg)
        shown = [b for k, b in self.buttons.items() if k != "hint" or self.help.enabled]
        verdict = self.help.verdict
        read = READ_PX * u
        for wdg in (self.status, verdict):
            wdg.size_hint = (1, None)
            wdg.font_size = wdg.min_font = read
            wdg.mode = "grow"
        self.status.opacity = 1  # a crowded landscape bar may have hidden it
        self._pad_verdict()
        if self.landscape:
            # wide enough for the status at the reading floor in Russian
            bw = max(144 * u, w * 0.18)
            bar.orientation = "vertical"
            bar.padding = (6 * u, 6 * u)
            bar.spacing = 5 * u  # the column is short: a gap, but not a wasted one
            bar.size, bar.pos = (bw, h), (w - bw, 0)
            bar.add_widget(self.status)
            if self.help.checking:
                bar.add_widget(verdict)
            self.action_box.orientation = "vertical"
            self.action_box.size_hint = (1, None)
            bar.add_widget(self.action_box)
            for b in shown:
                b.size_hint = (1, None)
                b.font_size = 19 * u
                b.min_font = read
                bar.add_widget(b)
            table = (0, 0, w - bw, h)
        else:
            bh = self._portrait_bar() * u
            bar.orientation = "vertical"
            bar.padding = (8 * u, 4 * u)
            bar.spacing = 4 * u
            bar.size, bar.pos = (w, bh), (0, 0)
            bar.add_widget(self.status)
            if self.help.checking:
                bar.add_widget(verdict)
            self.action_box.orientation = "horizontal"
            self.action_box.size_hint = (1, None)
            bar.add_widget(self.action_box)
            row = BoxLayout(orientation="horizontal", spacing=TOUCH_GAP * 1.5 * u)
            for b in shown:
                b.size_hint = (1, 1)
                b.font_size = 20 * u
                b.min_font = read
                row.add_widget(b)
            bar.add_widget(row)
            table = (0, bh, w, h - bh)
        self.table_area = table
        if self.view is not None:
            self.view.pos, self.view.size = table[:2], table[2:]
        Clock.schedule_once(lambda _dt: self._fit_buttons(), 0)
        self._update_status()  # its separator depends on the orientation just chosen
        self._update_actions()
        if self.sheet is not None:
            self._layout_sheet()

    def _pad_verdict(self, *_a) -> None:
        """The verdict is a button only while it offers the way back ("no win possible
        from here: Undo?"): then it is as tall as any other target."""
        verdict = self.help.verdict
        u = min(self.size) / 480 if min(self.size) > 0 else 1
        text_h = verdict.height - 2 * verdict.pad_y
        pad = 0.0 if verdict.disabled else max(0.0, (TOUCH_PX * u - text_h) / 2)
        if abs(pad - verdict.pad_y) > 0.01:
            verdict.pad_y = pad
            verdict._refit()

    def _size_column(self, *_a) -> None:
        """Share the landscape bar's height: every button keeps a 48 px target (up to 64
        px when there is room) and the status lines take what is left, shortened with
        "…" when the game's actions and the verdict crowd it (at 800x480 in Russian two
        actions and "no win possible" left the buttons 21 px high)."""
        if not self.landscape or min(self.size) <= 0:
            return
        u = min(self.size) / 480
        bar, status, verdict = self.bar, self.status, self.help.verdict
        main = [b for b in bar.children if b in self.buttons.values()]
        if not main:
            return
        width = bar.width - 2 * bar.padding[0]
        read = READ_PX * u
        free = (bar.height - bar.padding[1] - bar.padding[3]
                - bar.spacing * (len(bar.children) - 1) - self.action_box.height
                - (verdict.height if verdict.parent is bar else 0))
        parts = list(self._status_parts)
        while True:  # whole lines only: the parts that matter least leave first
            text, px = fit("\n".join(parts), read, read, width - fit_slack(read), None,
                           status.font_name, status.bold, status.line_height, True)
            need = max((text.count("\n") + 1) * line_px(px, status.font_name, status.bold)
                       * status.line_height, px * 1.2) if parts else 0.0
            button = max(TOUCH_PX * u, min(64 * u, (free - need) / len(main)))
            if free - button * len(main) >= need or not parts:
                break
            parts.remove(min(parts, key=self._status_parts.get))
        for b in main:
            b.height = button
        shown = "\n".join(p for p in self._status_parts if p in parts)
        if status.text != shown:
            status.text = shown
        if parts:
            status.mode, status.opacity = "grow", 1
        else:  # not one part fits: no line at all (it takes no room)
            status.mode, status.opacity = "box", 0
            status.height = 0

    def _portrait_bar(self) -> float:
        """The portrait bar's height in units, without the game's action buttons."""
        return 176 + (40 if self.help.checking else 0)

    def _fit_buttons(self) -> None:
        """Give the bar's buttons one text size, the largest at which each fits its width
        (down to the reading floor, a long word a little below): a row of buttons of one
        kind reads as one, so "Подсказка" is not drawn smaller than its neighbours. The
        widths are the bar's own arithmetic, not the widgets' (laid out a frame later)."""
        shown = [b for k, b in self.buttons.items() if k != "hint" or self.help.enabled]
        if not shown or min(self.size) <= 0:
            return
        u = min(self.size) / 480
        want = (19 if self.landscape else 20) * u
        hint = self.help.button
        # the Hint button's word, not the dots it shows while the solver thinks
        texts = [self.app.tr("Hint") if b is hint else str(b.text) for b in shown]
        if self.landscape:
            widths = [self.bar.width - 2 * 6 * u] * len(shown)
        else:  # the row shared by what each needs at the floor: "Подсказка" more, "Меню"
            # less (five equal buttons drew "Подсказка" at 0.8 of the floor)
            room = self.width - 2 * 8 * u - (len(shown) - 1) * TOUCH_GAP * 1.5 * u
            need = []
            for b, text in zip(shown, texts, strict=True):
                word = max((text_width(w, READ_PX * u, b.font_name, b.bold)
                            for w in text.split()), default=0.0)
                need.append(max(TOUCH_PX * u, word + 2 * b.inset + fit_slack(want)))
            extra = (room - sum(need)) / len(shown)
            widths = ([n + extra for n in need] if extra >= 0 else
                      [room * n / sum(need) for n in need])
            for b, width in zip(shown, widths, strict=True):
                b.size_hint_x = width
        common = want
        for b, text, width in zip(shown, texts, widths, strict=True):
            _text, px = fit(text, want, READ_PX * u, width - 2 * b.inset - fit_slack(want),
                            None, b.font_name, b.bold, words_only=True)
            common = min(common, px)
        for b in shown:
            b.min_font = common
            b.font_size = common

    # ------------------------------------------------------------------ status
    def _changed(self, *_a) -> None:
        self._update_status()
        self._update_actions()
        if self.ctl is not None and self._sheet_kind == "over" and not self.ctl.game.over:
            self.close_sheet()
        self.help.changed(_a[0] if _a else "")

    def _update_status(self, *_a) -> None:
        if self.ctl is None:
            return
        tr, g = self.app.tr, self.ctl.game
        parts = [tr("Deal {seed}", seed=g.seed), tr("Moves {moves}", moves=self.ctl.moves),
                 tr("Time {time}", time=clock_text(self.ctl.elapsed()))]
        entry = self.app.catalog_entry(self.ctl.game_id)
        if ((entry.get("score") or {}).get("label") or "") != "moves":
            parts.append(self.score_text(g.score))  # a score that counts moves: said once
        grade = g.grade
        if isinstance(grade, Reason):  # a grade with a number in it ("11 of 13 groups")
            parts.append(self.app.tr_reason(grade))
        elif grade:
            parts.append(tr(grade))
        # how much each part matters when the landscape bar is crowded (the verdict, the
        # game's actions): the deal's number leaves first, then the time, the moves, and
        # the score last; a part is shown whole or not at all (a cut score read "On…")
        rank = {0: 0, 2: 1, 1: 2}
        self._status_parts = {part: rank.get(k, 3 + k) for k, part in enumerate(parts)}
        self.status.text = ("\n" if self.landscape else "   ").join(parts)
        self._size_column()
        self.buttons["undo"].disabled = not self.ctl.can_undo
        self.buttons["undo"].opacity = 1 if self.ctl.can_undo else 0.45

    def score_text(self, score: int) -> str:
        """The game's own score, named as the game names it ("Cards left: 12"): the catalog's
        English label, translated when the ``.po`` files know it."""
        label = ""
        if self.ctl is not None:
            entry = self.app.catalog_entry(self.ctl.game_id)
            label = (entry.get("score") or {}).get("label") or ""
        if not label:
            return self.app.tr("Score {score}", score=score)
        text = self.app.tr(label)
        if text == label:  # no translation yet: the engine's words, capitalised
            text = label[:1].upper() + label[1:]
        return self.app.tr("{label}: {score}", label=text, score=score)

    def _update_actions(self) -> None:
        if self.ctl is None:
            return
        actions = self.ctl.actions()
        self.action_box.clear_widgets()
        self.action_buttons = []
        u = min(self.size) / 480 if min(self.size) > 0 else 1
        for move in actions[:3]:
            b = KButton(text=self.action_name(move), color=INK_DARK, bg=ACTION_BG,
                        bg_down=(1, 0.9, 0.5, 1), font_size=18 * u, face_inset=0)
            b.bind(on_release=lambda _b, m=move: self.play_action(m))
            self.action_box.add_widget(b)
            self.action_buttons.append(b)
        n = len(self.action_buttons)
        gap = TOUCH_GAP * u
        self.action_box.spacing = gap
        self.action_box.height = (n * (52 * u + gap) - gap if self.landscape and n else
                                  (56 * u if n else 0))
        self._size_column()
        if not self.landscape:
            self.bar.height = (self._portrait_bar() + (60 if n else 0)) * u
            self.bar.pos = (0, 0)
            if self.view is not None:
                self.view.pos = (0, self.bar.height)
                self.view.size = (self.width, self.height - self.bar.height)

    def action_name(self, move: Move) -> str:
        tr = self.app.tr
        text = tr(move.kind)
        if text == move.kind:  # not in the catalogs yet: make the id readable
            text = move.kind.replace("_", " ").capitalize()
        return text

    # ------------------------------------------------------------------ actions
    def play_action(self, move: Move) -> None:
        if self.ctl is None:
            return
        reason = self.ctl.play(move, "button")
        if reason:
            self.say(reason)
        self.ctl.autoplay_soon()

    def new_deal(self, source: str = "button") -> None:
        if self.ctl is not None:
            self.ctl.new_deal(source=source)

    def undo(self, source: str = "button") -> None:
        if self.ctl is not None:
            self.ctl.undo(source)

    # the controller's events: the same whoever asked (this screen, a button, a key)
    def _dealt(self, _game=None, old=None, *_a) -> None:
        self.close_sheet()
        self.hush()
        if self.ctl is not None and self.ctl.shelved and old is not None and old.history \
                and not old.won:  # the game in progress is not lost: say how to get it back
            self.say(self.app.tr("Your game is kept: Undo brings it back."), 4.0)

    def _restored(self, *_a) -> None:
        self.close_sheet()
        self.say(self.app.tr("Your game is back."))

    def _undone(self, *_a) -> None:
        if self._sheet_kind in ("won", "over"):
            self.close_sheet()

    def _refused(self, what: str, _source: str) -> None:
        if what == NOTHING_TO_UNDO:
            self._undone()
            self.say(self.app.tr("There is nothing to undo."))

    def _left(self, *_a) -> None:
        self.help.stop()
        self.close_sheet()

    def go_home(self, source: str = "button") -> None:
        self.leave(source)
        self.app.show_picker(self.ctl.game_id if self.ctl else None)

    def leave(self, source: str = "button") -> None:
        """The visitor leaves the table (Home, the held New deal button, the idle timer):
        an unfinished play is logged as abandoned."""
        if self.ctl is not None:
            self.ctl.leave(source)
        else:
            self._left()

    def say(self, text: Reason | str | None, seconds: float = 2.8) -> None:
        """One short line on the table (a refused move's reason), where it covers no card."""
        if not text:
            return
        t = self.toast
        u = min(self.size) / 480
        px = 19 * u
        area = getattr(self, "table_area", (0, 0, self.width, self.height))
        t.show_text(self.app.tr_reason(text), px, area[2] * 0.9)
        t.pos = self._toast_place(area, t.size, 10 * u)
        t.over_text((area[0], area[2]) if t.y < area[1] else None)
        Animation.cancel_all(t)
        t.opacity = 1
        if self._toast_ev is not None:
            self._toast_ev.cancel()
        self._toast_ev = Clock.schedule_once(
            lambda _dt: Animation(opacity=0, d=0.4).start(t), seconds)

    def hush(self) -> None:
        """Take the line off at once: it spoke of the deal that was on the table (a
        suggestion said in English stayed over the next visitor's Russian table when the
        table was left, the language changed and a game opened within its seconds)."""
        if self._toast_ev is not None:
            self._toast_ev.cancel()
            self._toast_ev = None
        Animation.cancel_all(self.toast)
        self.toast.opacity = 0

    def _toast_place(self, area, size, gap: float) -> tuple[float, float]:
        """Where a message of ``size`` covers the fewest cards: the table's foot, its top or
        its middle, centred across (messages stay off the cards a visitor reads). In
        portrait, when all three cover a card (Napoleon's Tomb's cross fills the table's
        height), the message sits over the status line instead, for its few seconds: a card
        under it is what the visitor is looking at, the move count is not."""
        from kiosk.table.geometry import Rect

        ax, ay, aw, ah = area
        w, h = size
        x = ax + (aw - w) / 2
        rects = list(self.view.card_rects().values()) if self.view is not None else []
        best, best_cover = (x, ay + gap), None
        for y in (ay + gap, ay + ah - h - gap, ay + (ah - h) / 2):
            box = Rect(x, y, w, h)
            cover = sum(box.overlap(r) for r in rects)
            if best_cover is None or cover < best_cover - 1:
                best, best_cover = (x, y), cover
            if cover == 0:
                return best
        if not self.landscape and ay >= h:
            return (x, ay - h)   # the portrait bar's top: the status line, above the buttons
        return best

    def _result(self, _view, result: TapResult) -> None:
        if result.outcome == "played" and self.ctl is not None:
            self.ctl.autoplay_soon()
        elif result.outcome == "refused" and result.reason:
            self.say(result.reason)
        elif result.outcome == "selected":
            self.say(self.app.tr("Tap a highlighted card to finish the move."), 2.0)

    # ------------------------------------------------------------------ autoplay
    def _autoplay_hold(self) -> str | None:
        """For the controller's autoplay: play only while this table is shown, and not
        under a finger that drags a card."""
        if self.manager is None or self.manager.current != "table":
            return "stop"
        if self.view is not None and self.view._dragging:
            return "wait"
        return None

    # ------------------------------------------------------------------ sheets
    def close_sheet(self) -> None:
        self._end_cascade()
        if self.sheet is not None:
            self.root.remove_widget(self.sheet)
        self.sheet = None
        self._sheet_kind = ""

    def _open_sheet(self, kind: str, dim: float = 0.55) -> Sheet:
        """A sheet over the table; the messages low on the table ("No way to win", "No more
        moves") leave the bar in use: Home, Undo and New deal answer as always (the "No way
        to win" sheet took every touch, Home's included, until Close)."""
        self.close_sheet()
        open_to = self.bar if kind in LOW_SHEETS else None
        self.sheet = Sheet(dim=dim, open_to=open_to, size_hint=(1, 1), pos_hint={"x": 0, "y": 0})
        self._sheet_kind = kind
        self.root.add_widget(self.sheet)
        return self.sheet

    def _layout_sheet(self) -> None:
        s = self.sheet
        if s is None:
            return
        w, h = self.size
        if self._sheet_kind == "rules":
            s.panel.size = (w * 0.92, h * 0.92)
        elif self._sheet_kind in LOW_SHEETS:  # low on the table: the cards stay in view
            u = min(w, h) / 480
            ax, ay, aw, ah = getattr(self, "table_area", (0, 0, w, h))
            s.panel.size = (min(aw * 0.94, 560 * u), 190 * u)
            s.panel.pos = (ax + (aw - s.panel.width) / 2, ay + 10 * u)
            s.dim_box = (ax, ay, aw, ah)  # the bar stays bright: it still answers
            s._fit()
            return
        else:
            s.panel.size = (min(w * 0.9, 600 * min(w, h) / 480), 290 * min(w, h) / 480)
        s.panel.pos = ((w - s.panel.width) / 2, (h - s.panel.height) / 2)

    def show_rules(self) -> None:
        if self.ctl is None:
            return
        self.close_sheet()
        s = RulesSheet(self.ctl.game_id, tuple(self.size), self.close_sheet, self.switch_deck)
        self.sheet, self._sheet_kind = s, "rules"
        self.root.add_widget(s)
        self.deck_button = s.deck_button
        self.rules_body = s.body
        self._layout_sheet()

    def switch_deck(self) -> None:
        """The four-colour deck on or off for this visit (clubs green, diamonds blue); the
        next visitor finds the operator's choice again (:meth:`KioskApp.go_welcome`)."""
        app = self.app
        app.four_colour = not app.four_colour
        if self.view is not None:
            self.view.four_colour = app.four_colour
        light_deck(getattr(self, "deck_button", None))

    def on_leave(self, *_a) -> None:
        """Another screen took over (the picker, the welcome screen, attract mode)."""
        self.help.stop()
        self.hush()
        self._end_cascade()

    def _won(self, game, now: bool = False) -> None:
        self.help.stop()
        if now or not self.app.animate:
            Clock.schedule_once(lambda _dt: self._show_won(), 0)
            return
        Clock.schedule_once(lambda _dt: self._start_cascade(), MOVE_TIME + 0.15)

    def _start_cascade(self) -> None:
        """The cards leave the foundations and bounce (a few seconds, a tap ends it), then
        the "You won!" sheet."""
        if self.ctl is None or not self.ctl.game.won or self.view is None:
            return
        self._end_cascade()
        try:
            self.cascade = cascade_over(self.root, self.ctl.game, self.view.geometry(),
                                        seed=self.ctl.seed, four_colour=self.app.four_colour)
        except Exception:  # a drawing bug must not hide the win
            log.exception("the win's cascade failed")
            self._show_won()
            return
        if self.cascade.running:
            self.cascade.bind(on_done=self._cascade_done)
        else:
            self._cascade_done()

    def _cascade_done(self, *_a) -> None:
        self.cascade = None
        self._show_won()

    def _end_cascade(self) -> None:
        """Stop the cascade without the sheet that follows it (a new deal, Undo, leaving)."""
        cascade, self.cascade = self.cascade, None
        if cascade is not None:
            cascade.unbind(on_done=self._cascade_done)
            cascade.finish()

    def _show_won(self) -> None:
        if self.ctl is None or not self.ctl.game.won:
            return
        tr = self.app.tr
        line = self.app.trn("Deal {seed} solved in {n} move, {time}.",
                            "Deal {seed} solved in {n} moves, {time}.",
                            self.ctl.moves, seed=self.ctl.seed,
                            time=clock_text(self.ctl.elapsed()))
        s = self._end_sheet("won", 0.45, (20, 14, 10), (tr("You won!"), 46), line, (70, 22),
                            [(tr("Play again"), True, lambda: self.new_deal("win")),
                             (tr("Other games"), False, self.go_home)])
        if self.app.animate:
            self._celebrate(s)

    def _celebrate(self, sheet: Sheet) -> None:
        """Suit symbols rise and fade: a short, cheap firework (attract mode's too)."""
        fireworks(sheet, tuple(self.size), seed=self.ctl.seed if self.ctl else 0)

    def _over(self, game) -> None:
        self.help.stop()
        if game.won:
            return
        Clock.schedule_once(lambda _dt: self._show_over(), MOVE_TIME + 0.1)

    def _show_over(self) -> None:
        if self.ctl is None or not self.ctl.game.over or self.ctl.game.won:
            return
        tr = self.app.tr
        self._end_sheet("over", 0.3, (18, 10, 6), (tr("No more moves"), 30),
                        tr("Undo a move or start a new deal."), (64, 21),
                        [(tr("Undo"), False, lambda: self.undo("button")),
                         (tr("New deal"), True, lambda: self.new_deal("button"))])

    def _end_sheet(self, kind: str, dim: float, spacing: tuple[float, float, float],
                   title: tuple[str, float], line: str, buttons_px: tuple[float, float],
                   buttons: list[tuple[str, bool, Callable[[], object]]]) -> Sheet:
        """A sheet at the end of a game ("You won!", "No more moves"): a gold title, one
        line under it and a row of buttons, the main choice in the action colour. Sizes
        are in pixels of a 480-pixel screen: ``spacing`` the padding across and down and
        the gap, ``title`` the words and their size, ``buttons_px`` the row's height and
        its words' size."""
        u = min(self.size) / 480
        s = self._open_sheet(kind, dim=dim)
        s.panel.padding = (spacing[0] * u, spacing[1] * u)
        s.panel.spacing = spacing[2] * u
        s.panel.add_widget(FitLabel(text=title[0], bold=True, color=GOLD,
                                    font_size=title[1] * u, min_font=READ_PX * u,
                                    halign="center"))
        s.panel.add_widget(FitLabel(text=line, color=(1, 1, 1, 1), font_size=19 * u,
                                    min_font=READ_PX * u, halign="center"))
        row = BoxLayout(spacing=14 * u, size_hint_y=None, height=buttons_px[0] * u)
        for text, main, action in buttons:
            b = (KButton(text=text, color=INK_DARK, bg=ACTION_BG, bg_down=GOLD,
                         font_size=buttons_px[1] * u) if main else
                 KButton(text=text, color=(1, 1, 1, 1), font_size=buttons_px[1] * u))
            b.bind(on_release=lambda *_, f=action: f())
            row.add_widget(b)
        s.panel.add_widget(row)
        self._layout_sheet()
        return s
