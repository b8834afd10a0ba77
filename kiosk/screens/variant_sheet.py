"""The variant sheet: before the deal, the named variants of the chosen game as big buttons.

Visitors who know other solitaire apps expect to choose "Draw 1" or "Draw 3"; the sheet
shows only what the operator offers (:mod:`kiosk.settings.variants`), the default first in
gold, and one tap deals. The hardware buttons answer it too (New deal: the default;
Undo: back to the games, see :meth:`kiosk.lobby.Lobby.on_button`), so a visitor who only
presses buttons is never stuck on it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, RoundedRectangle
from kivy.properties import ColorProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from kiosk.i18n import game_text
from kiosk.screens.text_fit import READ_PX, FitLabel, fit_slack, line_px, wrap_text
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, INK_DARK, Felt, KButton
from kiosk.settings import variants
from kiosk.settings.variants import Variant

CHOSEN_BG = (0.98, 0.76, 0.25, 0.92)
#: a KButton's face lies this far inside its box
INSET = 2


class NoteButton(ButtonBehavior, BoxLayout):
    """A variant as a big button: its name in bold and, under it, what it means, each a
    label of its own at its own size (one label with markup drew the description at 15 px
    a unit, and the words check could not read it). ``text`` is both, for the tests."""

    bg = ColorProperty((1, 1, 1, 0.16))
    bg_down = ColorProperty((1, 1, 1, 0.34))

    def __init__(self, name: str, note: str, color, name_px: float, note_px: float,
                 **kw) -> None:
        super().__init__(orientation="vertical", **kw)
        with self.canvas.before:
            self._colour = Color(*self.bg)
            self._rect = RoundedRectangle(radius=[10])
        self.name = FitLabel(text=name, bold=True, color=color, halign="center",
                             font_size=name_px, min_font=note_px, inset=6)
        self.note = FitLabel(text=note, color=color, halign="center", font_size=note_px,
                             min_font=note_px, inset=6) if note else None
        self.add_widget(self.name)
        if self.note is not None:  # the name one line, the description the rest
            self.name.size_hint_y = None
            self.name.height = line_px(name_px, self.name.font_name, True) + 2
            self.add_widget(self.note)
        self.bind(pos=self._fit, size=self._fit, state=self._paint, bg=self._paint)
        self._fit()

    @property
    def text(self) -> str:
        return self.name.text + ("\n" + self.note.text if self.note is not None else "")

    def _fit(self, *_a) -> None:
        self._rect.pos = (self.x + INSET, self.y + INSET)
        self._rect.size = (max(0, self.width - 2 * INSET), max(0, self.height - 2 * INSET))
        self._rect.radius = [min(10, self.height / 3)]
        self._paint()

    def _paint(self, *_a) -> None:
        self._colour.rgba = self.bg_down if self.state == "down" else self.bg


class VariantScreen(Screen):
    """``open(game_id)`` shows that game's offered variants; a tap on one deals it."""

    def __init__(self, **kw) -> None:
        super().__init__(name="variants", **kw)
        self.game_id = ""
        self.root = FloatLayout()
        self.root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.box = BoxLayout(orientation="vertical", size_hint=(None, None))
        self.root.add_widget(self.box)
        self.add_widget(self.root)
        #: the variant buttons, by variant key (the tests tap them)
        self.buttons: dict[str, NoteButton] = {}
        self.back: KButton | None = None
        #: the level row's buttons (games against the computer with another question)
        self.level_buttons: dict[str, KButton] = {}
        #: the level the visitor picked in that row (None: the game has no such row)
        self.level: str | None = None
        self.title: Label | None = None
        self.bind(size=lambda *_a: self._build())

    @property
    def app(self):
        return App.get_running_app()

    def open(self, game_id: str) -> None:
        self.game_id = game_id
        self.level = variants.default_level(self.app.cfg, game_id)
        self._build()

    def retranslate(self) -> None:
        self._build()

    def shown(self) -> list[Variant]:
        return variants.offered(self.app.cfg, self.game_id) if self.game_id else []

    def default(self) -> Variant | None:
        return variants.default(self.app.cfg, self.game_id) if self.game_id else None

    def _build(self) -> None:
        self.box.clear_widgets()
        self.buttons = {}
        self.level_buttons = {}
        if not self.game_id or self.width < 10:
            return
        app, tr = self.app, self.app.tr
        w, h = self.size
        u = min(w, h) / 480
        landscape = w >= h
        shown = self.shown()
        chosen = self.default()
        beside = variants.levels_beside(self.game_id)
        bw = min(w * 0.96, 760 * u)  # a description on one line where it can be
        row = (84 if landscape else 120) * u
        gap = 10 * u
        title = Label(text=game_text(app.catalog_entry(self.game_id), "names", app.lang),
                      bold=True, color=GOLD, font_size=30 * u, size_hint_y=None,
                      height=48 * u, halign="center", valign="middle", shorten=True,
                      shorten_from="right")
        title.bind(size=lambda lab, sz: setattr(lab, "text_size", sz))
        levels = bool(shown) and all(set(v.options) == {"level"} for v in shown)
        question = tr("How well should the computer play?") if levels else \
            tr("How would you like to play?")
        ask = Label(text=question, color=(1, 1, 1, 0.95),
                    font_size=19 * u, size_hint_y=None, height=34 * u, halign="center",
                    valign="middle")
        ask.bind(size=lambda lab, sz: setattr(lab, "text_size", sz))
        self.title = title
        parts: list = [title, ask]
        if beside:
            parts.append(self._level_row(beside, u, gap))
        # many variants (Draw Poker's 1 to 7 opponents) go in two columns, rows shrunk to
        # fit the screen, so the Back button is never pushed off it
        cols = 2 if len(shown) > 4 else 1
        rows = -(-len(shown) // cols)
        fixed = (48 + 34 + 52) * u + gap * 3 + ((52 * u + gap) if beside else 0)
        room = (h * 0.94 - fixed - gap * (rows - 1)) / max(1, rows)
        # the descriptions at the reading floor, as many lines as they take in the width
        name_px, note_px = 21 * u, READ_PX * u
        font = title.font_name
        width = (bw - gap * (cols - 1)) / cols - 2 * 6 - fit_slack(note_px)
        lines = max((len(wrap_text(tr(v.note), note_px, width, font)) for v in shown),
                    default=0)
        pad = 8 * u
        with_notes = (line_px(name_px, font, True) + 2 + lines * line_px(note_px, font) + 2
                      + 2 * pad)
        # rows too short for the descriptions (Draw Poker's seven with the level row) keep
        # the name alone, which says it all ("3 opponents"); at least 48 px of button face
        notes = with_notes <= room
        row = max(52 * u, min(max(row, with_notes) if notes else row, room))
        grid = GridLayout(cols=cols, spacing=gap, size_hint_y=None,
                          height=rows * row + gap * (rows - 1)) if cols > 1 else None
        for v in shown:
            first = chosen is not None and v.key == chosen.key
            b = NoteButton(tr(v.name), tr(v.note) if notes else "",
                           INK_DARK if first else (1, 1, 1, 1), name_px, note_px,
                           bg=CHOSEN_BG if first else (1, 1, 1, 0.16),
                           bg_down=GOLD if first else (1, 1, 1, 0.34),
                           size_hint_y=None, height=row, padding=(0, pad))
            b.bind(on_release=lambda _b, var=v: self.choose(var))
            self.buttons[v.key] = b
            if grid is not None:
                grid.add_widget(b)
            else:
                parts.append(b)
        if grid is not None:
            parts.append(grid)
        back = KButton(text=tr("Back"), color=(1, 1, 1, 1), font_size=19 * u,
                       size_hint=(None, None), size=(min(bw, 220 * u), 52 * u))
        back.bind(on_release=lambda *_: self.go_back())
        self.back = back
        back_row = BoxLayout(size_hint_y=None, height=52 * u)
        back_row.add_widget(Label())
        back_row.add_widget(back)
        back_row.add_widget(Label())
        parts.append(back_row)
        self.box.spacing = gap
        for p in parts:
            self.box.add_widget(p)
        height = sum(p.height for p in parts) + gap * (len(parts) - 1)
        self.box.size = (bw, height)
        self.box.pos = ((w - bw) / 2, max(0.0, (h - height) / 2))

    def _level_row(self, levels: tuple[Variant, ...], u: float, gap: float) -> BoxLayout:
        """Easy / Normal side by side; the chosen one in gold, a tap switches."""
        row = BoxLayout(size_hint_y=None, height=52 * u, spacing=gap)
        tr = self.app.tr
        for v in levels:
            on = v.key == self.level
            b = KButton(text=tr(v.name), color=INK_DARK if on else (1, 1, 1, 1),
                        bg=CHOSEN_BG if on else (1, 1, 1, 0.16),
                        bg_down=GOLD if on else (1, 1, 1, 0.34), font_size=20 * u)
            b.bind(on_release=lambda _b, key=v.key: self.pick_level(key))
            self.level_buttons[v.key] = b
            row.add_widget(b)
        return row

    def pick_level(self, key: str) -> None:
        self.level = key
        self._build()

    def choose(self, variant: Variant | None = None) -> None:
        """Deal ``variant`` (the default when None), at the level row's level if any."""
        variant = variant or self.default()
        options = dict(variant.options) if variant else {}
        if self.level is not None:
            options["level"] = self.level
        self.app.open_game(self.game_id, options=options or None)

    def go_back(self) -> None:
        self.app.show_picker(self.game_id or None)
