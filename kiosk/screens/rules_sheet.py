"""The sheets that cover a table, and the Rules sheet every table shares.

Why one Rules sheet for the solitaires and the hand tables: a visitor who learnt where the
rules are at Klondike finds them the same at Gin, with the same deck switch under them. A
hand table puts a few lines first ("How to play this hand": what to tap, what the marks on
the table mean, from the game's ``how_to_play`` text) and the full rules after them; a
solitaire shows its rules alone, as it always did.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.app import App
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk.i18n import game_text
from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.widgets import GOLD, INK_DARK, KButton
from kiosk.table.gin_turns import _

ACTION_BG = (0.98, 0.76, 0.25, 0.9)
#: the rules sheet's last paragraph: what the sheet's deck button does
DECK_NOTE = ("Four-colour deck: clubs ♣ are green and diamonds ♦ blue, so every suit has a "
             "colour of its own. The button below switches it on or off.")
#: the headings of a hand table's sheet: the short way in, then the whole rules
HOW_HEADING = _("How to play this hand")
RULES_HEADING = _("All the rules")


#: the sheets that lie low on the table and leave the bar in use
LOW_SHEETS = ("over", "nowin")


class Sheet(FloatLayout):
    """A dimmed cover with a panel in the middle (rules, win, no more moves).

    ``open_to``: a widget beside the sheet that stays in use while it is up (the bar,
    under the messages that lie low on the table: "No way to win", "No more moves"), not
    dimmed, its touches let through; everything else under a sheet takes no touch."""

    def __init__(self, dim: float = 0.55, open_to: Widget | None = None, **kw) -> None:
        super().__init__(**kw)
        self.open_to = open_to
        #: the part the cover dims (x, y, w, h); None: all of the sheet
        self.dim_box: tuple[float, float, float, float] | None = None
        with self.canvas.before:
            Color(0, 0, 0, dim)
            self._dim = Rectangle()
            Color(0.06, 0.2, 0.13, 0.97)
            self._panel = RoundedRectangle(radius=[18])
        self.panel = BoxLayout(orientation="vertical", size_hint=(None, None))
        self.add_widget(self.panel)
        self.bind(pos=self._fit, size=self._fit)
        self.panel.bind(pos=self._fit, size=self._fit)

    def _fit(self, *_a) -> None:
        box = self.dim_box or (*self.pos, *self.size)
        self._dim.pos, self._dim.size = box[:2], box[2:]
        self._panel.pos, self._panel.size = self.panel.pos, self.panel.size

    def _let_through(self, touch) -> bool:
        """A touch on the widget left open (and not on the panel) goes on to it."""
        w = self.open_to
        return (w is not None and w.parent is not None and w.collide_point(*touch.pos)
                and not self.panel.collide_point(*touch.pos))

    def on_touch_down(self, touch) -> bool:
        if self._let_through(touch):
            return False
        super().on_touch_down(touch)
        return True  # nothing else under a sheet takes touches

    def on_touch_move(self, touch) -> bool:
        if self._let_through(touch):
            return False
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch) -> bool:
        if self._let_through(touch):
            return False
        super().on_touch_up(touch)
        return True


def deck_text() -> str:
    app = App.get_running_app()
    return app.tr("Four-colour deck: on") if app.four_colour else \
        app.tr("Four-colour deck: off")


def light_deck(button: KButton | None) -> None:
    """On: dark ink on gold (white on gold reads at 3.6:1); off: white on the panel."""
    if button is None:
        return
    on = App.get_running_app().four_colour
    button.text = deck_text()
    button.selected = on
    button.color = INK_DARK if on else (1, 1, 1, 1)


class RulesSheet(Sheet):
    """The rules of ``game_id`` in the visitor's language over a screen of ``size``: the
    game's name, its texts in a scrolling column, the deck switch (``on_deck``) and Close
    (``on_close``). ``lead``: a hand table's sheet starts with the game's "how to play
    this hand" under its own heading, then the rules under theirs."""

    def __init__(self, game_id: str, size: tuple[float, float], on_close: Callable[[], None],
                 on_deck: Callable[[], None], lead: bool = False, **kw) -> None:
        super().__init__(dim=0.6, size_hint=(1, 1), pos_hint={"x": 0, "y": 0}, **kw)
        app = App.get_running_app()
        tr = app.tr
        entry = app.catalog_entry(game_id)
        u = min(size) / 480
        self.panel.padding = (18 * u, 12 * u)
        self.panel.spacing = 10 * u
        self.title = FitLabel(text=game_text(entry, "names", app.lang), bold=True, color=GOLD,
                              font_size=26 * u, min_font=READ_PX * u, size_hint_y=None,
                              height=60 * u, halign="left", valign="middle")
        self.scroll = ScrollView(do_scroll_x=False, bar_width=8 * u,
                                 scroll_type=["bars", "content"])
        rules = game_text(entry, "rules", app.lang) + "\n\n" + tr(DECK_NOTE)
        self.body = self._text(rules, u)
        how = game_text(entry, "how_to_play", app.lang).strip() if lead else ""
        #: the "how to play this hand" lines (None on a solitaire's sheet)
        self.how: FitLabel | None = None
        self.headings: list[FitLabel] = []
        if how:
            column = BoxLayout(orientation="vertical", size_hint_y=None, spacing=6 * u)
            column.bind(minimum_height=column.setter("height"))
            self.how = self._text(how, u)
            for heading, text in ((HOW_HEADING, self.how), (RULES_HEADING, self.body)):
                label = FitLabel(text=tr(heading), bold=True, color=GOLD, font_size=22 * u,
                                 min_font=READ_PX * u, size_hint_y=None, halign="left",
                                 valign="middle", mode="grow", inset=6 * u)
                self.headings.append(label)
                column.add_widget(label)
                column.add_widget(text)
            self.scroll.add_widget(column)
        else:
            self.scroll.add_widget(self.body)
        close = KButton(text=tr("Close"), color=INK_DARK, bg=ACTION_BG, bg_down=GOLD,
                        font_size=20 * u, size_hint=(None, None), size=(200 * u, 56 * u))
        close.bind(on_release=lambda *_: on_close())
        self.close_button = close
        # the sheet's option: a visitor who tells ♣ from ♠ by colour switches the deck
        self.deck_button = KButton(text=deck_text(), font_size=19 * u, min_font=READ_PX * u,
                                   size_hint=(1, None), height=56 * u,
                                   bg_down=(0.98, 0.76, 0.25, 0.92))
        self.deck_button.bind(on_release=lambda *_: on_deck())
        light_deck(self.deck_button)
        row = BoxLayout(size_hint_y=None, height=58 * u, spacing=14 * u)
        row.add_widget(self.deck_button)
        row.add_widget(close)
        for wdg in (self.title, self.scroll, row):
            self.panel.add_widget(wdg)

    @staticmethod
    def _text(text: str, u: float) -> FitLabel:
        return FitLabel(text=text, color=(1, 1, 1, 0.95), font_size=READ_PX * u,
                        size_hint_y=None, halign="left", valign="top", line_height=1.15,
                        mode="grow", inset=6 * u)

    def place(self, size: tuple[float, float]) -> None:
        """The panel nearly fills the screen: rules are long."""
        w, h = size
        self.panel.size = (w * 0.92, h * 0.92)
        self.panel.pos = ((w - self.panel.width) / 2, (h - self.panel.height) / 2)
