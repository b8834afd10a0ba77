"""The welcome screen: invites a passer-by to touch; the first touch opens the picker.

When the configuration file could not be parsed (the kiosk runs on the last good copy or
the defaults, :attr:`kiosk.settings.config.Config.broken_file`), a small amber dot sits in the
bottom left corner: an operator who knows to look sees that something needs attention (the
operator menu's Status page says what); a visitor sees a speck and nothing to read.

The fan of five cards is drawn in the frame after the screen's first one: drawing its faces
(glyph boxes, a framebuffer, five textures) was the largest part of the start after Kivy's
own, and the screen takes a touch without them (docs/benchmarks.md, Touch table notes).
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Ellipse
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from games.engine import cards as C
from kiosk.screens.text_fit import READ_PX, FitLabel, text_width
from kiosk.screens.widgets import GOLD, Felt, LanguageBar, Panel
from kiosk.table.card_art import CardWidget

#: the operator mark's colour: amber, half transparent on the felt
MARK_RGBA = (1.0, 0.72, 0.2, 0.6)

SHOWCASE = (C.card(1, C.SPADES), C.card(13, C.HEARTS), C.card(12, C.CLUBS),
            C.card(11, C.DIAMONDS), C.JOKER)


class OperatorMark(Widget):
    """A dot, nothing to read: the configuration needs the operator (see the module)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas:
            Color(*MARK_RGBA)
            self._dot = Ellipse()
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_a) -> None:
        self._dot.pos, self._dot.size = self.pos, self.size


#: today's wins on their gold-tinted badge (#ffdc73)
WINS_GOLD = (1.0, 0.86, 0.45, 1)


class WelcomeScreen(Screen):
    """Title, a fan of cards and the language switch; a touch elsewhere starts."""

    def __init__(self, **kw) -> None:
        super().__init__(name="welcome", **kw)
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        fixed = {"size_hint": (None, None), "halign": "center", "valign": "middle"}
        self.title = FitLabel(bold=True, color=GOLD, **fixed)
        self.subtitle = FitLabel(color=(1, 1, 1, 1), **fixed)
        self.count = FitLabel(color=(1, 1, 1, 0.75), **fixed)
        # drawn once, at the size _arrange gives them (not first at a default size), and
        # not before the first frame has been shown (see the module)
        self.cards = [CardWidget(code, size=(0, 0)) for code in SHOWCASE]
        self.fan_shown = False
        Window.bind(on_flip=self._first_frame_shown)
        self.langs = LanguageBar(size_hint=(None, None))
        # today's wins, for passers-by (shown only when there are some)
        self.wins_badge = Panel(size_hint=(None, None), fill=(0.98, 0.76, 0.25, 0.16))
        # a lighter gold than the title's: 4.8:1 on the tinted badge reads at any size of
        # the font ladder (the title's gold is 3.9:1 there, enough only for large text,
        # and the ladder's 27 px rung at 720x1280 is just under large bold)
        self.wins = FitLabel(color=WINS_GOLD, bold=True, halign="center", valign="middle",
                             inset=8)
        self.wins_badge.add_widget(self.wins)
        self.wins_today = 0
        self.mark = OperatorMark(size_hint=(None, None), opacity=0)
        for w in (self.title, *self.cards, self.subtitle, self.count, self.langs,
                  self.wins_badge, self.mark):
            root.add_widget(w)
        self.add_widget(root)
        self.bind(size=self._arrange)  # the app translates it once it has its size

    def _first_frame_shown(self, *_a) -> None:
        Window.unbind(on_flip=self._first_frame_shown)
        Clock.schedule_once(lambda _dt: self.show_fan(), 0)

    def show_fan(self) -> None:
        """Draw the fan of cards (once the first frame is up)."""
        if not self.fan_shown:
            self.fan_shown = True
            self._arrange()

    def retranslate(self) -> None:
        app = App.get_running_app()
        tr = app.tr
        # the collection's name: solitaires and hands against the computer alike
        self.title.text = tr("Card games")
        self.subtitle.text = tr("Touch the screen to play")
        self.count.text = app.trn("{n} card game", "{n} card games", len(app.game_ids()))
        self.langs.current = app.lang
        self.show_wins(self.wins_today)

    def on_pre_enter(self, *_a) -> None:
        app = App.get_running_app()
        self.mark.opacity = 1 if getattr(app.cfg, "broken_file", None) is not None else 0
        self.count.text = app.trn("{n} card game", "{n} card games", len(app.game_ids()))
        self.show_wins(app.lobby.today_wins())

    def show_wins(self, wins: int) -> None:
        """"★ 3 games won here today ★" when there are any (never "0 wins")."""
        self.wins_today = wins
        app = App.get_running_app()
        # no text while the badge is hidden: fitting it into its box broke its line, the
        # one text of the first frame that needed the line breaker (uniseg)
        self.wins.text = ("" if wins <= 0 else
                          app.trn("★ {n} game won here today ★",
                                  "★ {n} games won here today ★", wins)
                          if wins > 1 else app.tr("★ A game won here today ★"))
        self.wins_badge.opacity = 1 if wins > 0 else 0
        self._arrange()

    def _arrange(self, *_a) -> None:
        w, h = self.size
        u = min(w, h) / 480
        # portrait: leave the top left corner free (the operator's hidden hold)
        self.langs.size = (min(w * (0.9 if w > h else 0.8), 420 * u), 56 * u)
        self.langs.pos = (w - self.langs.width - 12 * u, h - self.langs.height - 12 * u)
        self.title.font_size = 64 * u
        self.title.min_font = 36 * u  # "Карточные игры" on a narrow screen: smaller, whole
        self.title.size = (w * 0.94, 100 * u)
        self.title.x = w * 0.03
        self.title.y = h * (0.62 if w > h else 0.7)
        cw = min(w / 8, h / 5.2) if w > h else w / 6
        ch = cw * 1.4
        total = cw * 0.62 * (len(self.cards) - 1) + cw
        x0 = (w - total) / 2
        base_y = self.title.y - ch - 20 * u
        for k, card in enumerate(self.cards if self.fan_shown else ()):
            card.size = (round(cw), round(ch))
            lift = -abs(k - 2) * cw * 0.12
            card.pos = (round(x0 + k * cw * 0.62), round(base_y + lift))
        self.subtitle.font_size = 30 * u
        self.subtitle.min_font = READ_PX * u
        self.subtitle.size = (w * 0.9, 76 * u)
        self.subtitle.pos = (w * 0.05, base_y - 92 * u)
        self.count.font_size = READ_PX * u
        self.count.size = (w * 0.9, 30 * u)
        self.count.pos = (w * 0.05, self.subtitle.y - 34 * u)
        self.mark.size = (9 * u, 9 * u)
        self.mark.pos = (10 * u, 10 * u)
        self.wins.font_size = 19 * u
        self.wins.min_font = READ_PX * u
        bw = text_width(self.wins.text, 19 * u, self.wins.font_name, True) + 40 * u
        self.wins_badge.size = (bw, 46 * u)
        self.wins_badge.radius = 23 * u
        if w > h:  # landscape: top left, beside the language buttons
            room = self.langs.x - 24 * u
            if bw > room:  # the label shrinks (or wraps) itself into the badge
                self.wins_badge.width = room
            self.wins_badge.pos = (12 * u, self.langs.y + (self.langs.height - 46 * u) / 2)
        else:  # portrait: under the invitation
            self.wins_badge.pos = ((w - bw) / 2, self.count.y - 70 * u)

    def on_touch_down(self, touch) -> bool:
        if self.langs.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.ud["welcome"] = True
        return True

    def on_touch_up(self, touch) -> bool:
        if touch.ud.get("operator"):  # the hidden corner was held: the keypad is open
            return True
        if touch.ud.get("welcome"):
            App.get_running_app().show_picker()
            return True
        return super().on_touch_up(touch)
