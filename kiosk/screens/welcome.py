"""The welcome screen: invites a passer-by to touch; the first touch opens the picker."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from games import cards as C

from ..card_art import CardWidget
from ..widgets import GOLD, Felt, LanguageBar

SHOWCASE = (C.card(1, C.SPADES), C.card(13, C.HEARTS), C.card(12, C.CLUBS),
            C.card(11, C.DIAMONDS), C.JOKER)


class WelcomeScreen(Screen):
    """Title, a fan of cards and the language switch; a touch elsewhere starts."""

    def __init__(self, **kw) -> None:
        super().__init__(name="welcome", **kw)
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        fixed = {"size_hint": (None, None), "halign": "center", "valign": "middle"}
        self.title = Label(bold=True, color=GOLD, **fixed)
        self.subtitle = Label(color=(1, 1, 1, 1), **fixed)
        self.count = Label(color=(1, 1, 1, 0.75), **fixed)
        self.cards = [CardWidget(code) for code in SHOWCASE]
        self.langs = LanguageBar(size_hint=(None, None))
        for w in (self.title, *self.cards, self.subtitle, self.count, self.langs):
            root.add_widget(w)
        self.add_widget(root)
        self.bind(size=self._arrange)
        self.retranslate()

    def retranslate(self) -> None:
        app = App.get_running_app()
        tr = app.tr
        self.title.text = tr("Solitaire")
        self.subtitle.text = tr("Touch the screen to play")
        self.count.text = tr("{count} card games", count=len(app.game_ids()))
        self.langs.current = app.lang

    def _arrange(self, *_a) -> None:
        w, h = self.size
        u = min(w, h) / 480
        self.langs.size = (min(w * 0.9, 420 * u), 56 * u)
        self.langs.pos = (w - self.langs.width - 12 * u, h - self.langs.height - 12 * u)
        self.title.font_size = 64 * u
        self.title.size = (w, 90 * u)
        self.title.pos = (0, h * (0.62 if w > h else 0.7))
        cw = min(w / 8, h / 5.2) if w > h else w / 6
        ch = cw * 1.4
        total = cw * 0.62 * (len(self.cards) - 1) + cw
        x0 = (w - total) / 2
        base_y = self.title.y - ch - 20 * u
        for k, card in enumerate(self.cards):
            card.size = (round(cw), round(ch))
            lift = -abs(k - 2) * cw * 0.12
            card.pos = (round(x0 + k * cw * 0.62), round(base_y + lift))
        self.subtitle.font_size = 30 * u
        self.subtitle.text_size = (w * 0.9, None)
        self.subtitle.size = (w, 50 * u)
        self.subtitle.pos = (0, base_y - 80 * u)
        self.count.font_size = 18 * u
        self.count.size = (w, 30 * u)
        self.count.pos = (0, self.subtitle.y - 36 * u)

    def on_touch_down(self, touch) -> bool:
        if self.langs.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.ud["welcome"] = True
        return True

    def on_touch_up(self, touch) -> bool:
        if touch.ud.get("welcome"):
            App.get_running_app().show_picker()
            return True
        return super().on_touch_up(touch)
