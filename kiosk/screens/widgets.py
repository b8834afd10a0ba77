"""Small shared widgets: flat rounded buttons, the language switch, the felt background."""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk.i18n import LANGUAGE_NAMES, LANGUAGES
from kiosk.screens.font_ladder import rung
from kiosk.screens.text_fit import (
    READ_PX,
    FitLabel,
    LadderLabel,
    balanced_width,
    fit_slack,
    text_width,
)

FELT = (0.07, 0.36, 0.2, 1)
FELT_DARK = (0.03, 0.2, 0.11, 1)
GOLD = (0.98, 0.76, 0.25, 1)
INK_DARK = (0.1, 0.12, 0.1, 1)

_vignette: Texture | None = None


def vignette_rgb(x: float, y: float) -> tuple[float, float, float]:
    """The felt's colour at (``x``, ``y``), 0 to 1 across the cloth: felt green in the
    middle, darker to the rim (also what the contrast check reads text against)."""
    dx, dy = 2 * x - 1, 2 * y - 1
    t = min(1.0, (dx * dx + dy * dy) ** 0.5 / 1.35)
    t = t * t
    return tuple(FELT[k] * (1 - t) + FELT_DARK[k] * t for k in range(3))


def vignette_texture() -> Texture:
    """A soft radial gradient from felt green to a darker rim (one small texture, stretched)."""
    global _vignette
    if _vignette is None:
        size = 64
        buf = bytearray()
        for j in range(size):
            for i in range(size):
                rgb = vignette_rgb((i + 0.5) / size, (j + 0.5) / size)
                buf += bytes(int(c * 255) for c in rgb)
        tex = Texture.create(size=(size, size), colorfmt="rgb")
        tex.blit_buffer(bytes(buf), colorfmt="rgb", bufferfmt="ubyte")
        tex.mag_filter = tex.min_filter = "linear"
        _vignette = tex
    return _vignette


class Felt(Widget):
    """Paints the green table cloth behind whatever sits on it."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            Color(1, 1, 1, 1)
            self._bg = Rectangle(texture=vignette_texture())
        self.bind(pos=self._fit, size=self._fit)

    def _fit(self, *_a) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size


class KButton(ButtonBehavior, FitLabel):
    """A flat rounded button with big text, sized for a finger; its text is broken by
    Unicode's rules and shrunk to fit (:class:`~kiosk.screens.text_fit.FitLabel`)."""

    bg = ColorProperty((1, 1, 1, 0.16))
    bg_down = ColorProperty((1, 1, 1, 0.34))
    radius = NumericProperty(10)
    selected = BooleanProperty(False)
    #: how far inside its box the face is painted: the gap a free-standing button keeps
    #: from its neighbours; 0 where a layout's spacing parts them already (the table's
    #: bar, whose 48 px boxes drew 44 px faces)
    face_inset = NumericProperty(2)

    def __init__(self, **kw) -> None:
        kw.setdefault("halign", "center")
        kw.setdefault("valign", "middle")
        kw.setdefault("inset", 6)
        kw.setdefault("words_only", True)
        super().__init__(**kw)
        with self.canvas.before:
            self._color = Color(*self.bg)
            self._rect = RoundedRectangle(radius=[self.radius])
        self.bind(pos=self._fit, size=self._fit, state=self._paint, bg=self._paint,
                  selected=self._paint, face_inset=self._fit)
        self._fit()

    def _fit(self, *_a) -> None:
        inset = self.face_inset
        self._rect.pos = (self.x + inset, self.y + inset)
        self._rect.size = (max(0, self.width - 2 * inset), max(0, self.height - 2 * inset))
        self._rect.radius = [min(self.radius, self.height / 3)]
        self._paint()

    def _paint(self, *_a) -> None:
        rgba = self.bg_down if self.state == "down" or self.selected else self.bg
        self._color.rgba = rgba


def lit_in_dark_ink(button: KButton) -> KButton:
    """A tab or choice whose chosen state is dark ink on gold: white on a see-through gold
    reads at about 3.8:1 on the felt, under the 4.5:1 text needs (WCAG 1.4.3)."""
    button.bg_down = (0.98, 0.76, 0.25, 0.92)

    def ink(*_a) -> None:
        button.color = INK_DARK if button.selected else (1, 1, 1, 1)

    button.bind(selected=ink)
    ink()
    return button


class LanguageBar(BoxLayout):
    """Three buttons, one per language, each in its own language; the current one is lit."""

    current = StringProperty("en")

    def __init__(self, **kw) -> None:
        super().__init__(orientation="horizontal", spacing=6, **kw)
        self.buttons: dict[str, KButton] = {}
        for lang in LANGUAGES:
            b = KButton(text=LANGUAGE_NAMES[lang], color=(1, 1, 1, 1))
            b.bind(on_release=lambda _b, code=lang: self._pick(code))
            self.buttons[lang] = b
            self.add_widget(b)
        self.bind(current=self._light, size=self._font)
        self._light()

    def _font(self, *_a) -> None:
        from kivy.core.window import Window

        floor = READ_PX * min(Window.size) / 480  # never under the reading floor
        size = max(floor, min(self.height * 0.42, self.width / len(self.buttons) / 5.0))
        for b in self.buttons.values():
            b.min_font = floor
            b.font_size = size

    def _pick(self, lang: str) -> None:
        app = App.get_running_app()
        if app is not None:
            app.set_language(lang)

    def _light(self, *_a) -> None:
        """The current language in dark ink on gold: white on a see-through gold read at
        3.6:1 on the felt, under the 4.5:1 text needs."""
        for lang, b in self.buttons.items():
            b.selected = lang == self.current
            b.bg = (1, 1, 1, 0.12)
            b.bg_down = (0.98, 0.76, 0.25, 0.92)
            b.color = INK_DARK if b.selected else (1, 1, 1, 1)


class Toast(FitLabel):
    """One short message over the table (why a move was refused), fading after a few
    seconds; its lines break by Unicode's rules and its height follows them."""

    def __init__(self, **kw) -> None:
        super().__init__(size_hint=(None, None), opacity=0, halign="center", valign="middle",
                         mode="grow", inset=18, pad_y=9, **kw)
        self._span: tuple[float, float] | None = None
        with self.canvas.before:
            self._c = Color(0, 0, 0, 0.72)
            self._r = RoundedRectangle(radius=[12])
        self.bind(pos=self._fit, size=self._fit)

    def show_text(self, text: str, px: float, most_width: float) -> None:
        """``text`` at ``px``, on one line if it fits ``most_width``, else broken into
        lines of about the same length (:func:`~kiosk.screens.text_fit.balanced_width`); at
        ``px``'s rung of the font ladder, the size it is drawn at."""
        px = rung(px)
        self.font_size = px
        room = 2 * self.inset + fit_slack(px) + 1  # what the label keeps beside its text
        one_line = text_width(text, px, self.font_name, self.bold) + room
        self.text = text
        if one_line <= most_width:
            self.width = one_line
        else:
            self.width = balanced_width(text, px, most_width - room, self.font_name,
                                        self.bold) + room
        self._refit()

    def over_text(self, span: tuple[float, float] | None) -> None:
        """Over other text (the portrait status line) the message's backdrop spans
        ``span`` (x, width) and is opaque, so no half of a word shows beside or through it;
        the text keeps its balanced lines in the middle."""
        self._span = span
        self._c.rgba = (0.011, 0.045, 0.025, 1) if span else (0, 0, 0, 0.72)
        self._fit()

    def _fit(self, *_a) -> None:
        if self._span:
            self._r.pos, self._r.size = (self._span[0], self.y), (self._span[1], self.height)
        else:
            self._r.pos, self._r.size = self.pos, self.size


class Panel(BoxLayout):
    """A box on a rounded, darker green card (the operator pages, the demo's banner)."""

    fill = ColorProperty((0.04, 0.16, 0.09, 0.92))
    radius = NumericProperty(16)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            self._c = Color(*self.fill)
            self._r = RoundedRectangle(radius=[self.radius])
        self.bind(pos=self._fit, size=self._fit, fill=self._paint, radius=self._fit)

    def _fit(self, *_a) -> None:
        self._r.pos, self._r.size = self.pos, self.size
        self._r.radius = [self.radius]

    def _paint(self, *_a) -> None:
        self._c.rgba = self.fill


class Wrapped(LadderLabel):
    """A label whose text wraps to its width and whose height follows its text (at a rung
    of the font ladder)."""

    def __init__(self, **kw) -> None:
        kw.setdefault("halign", "left")
        kw.setdefault("valign", "middle")
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.bind(width=self._wrap, texture_size=self._grow)
        self._wrap()

    def _wrap(self, *_a) -> None:
        self.text_size = (max(1, self.width), None)

    def _grow(self, *_a) -> None:
        self.height = max(self.texture_size[1], self.font_size * 1.3)


def fit_font(text: str, size: float, width: float, bold: bool = False) -> float:
    """``size``'s rung of the font ladder, or a smaller rung so that ``text`` fits
    ``width`` on one line (long words in Russian, narrow portrait screens)."""
    from kivy.core.text import Label as CoreLabel

    size = rung(size)
    if width <= 0 or not text:
        return size
    core = CoreLabel(text=text, font_size=size, bold=bold)
    core.refresh()
    wide = core.texture.size[0] if core.texture else 0
    return size if wide <= width else max(8.0, rung(size * width / wide))


class ButtonGrid(GridLayout):
    """Buttons in as many columns as fit ``min_cell`` wide each, in rows of
    ``row_default_height``: a game with seven variants gets two rows of readable buttons
    instead of one row of seven cut ones ("2 соп…")."""

    min_cell = NumericProperty(140)

    def __init__(self, **kw) -> None:
        kw.setdefault("size_hint_y", None)
        kw.setdefault("cols", 1)
        super().__init__(**kw)
        self.bind(minimum_height=self.setter("height"), width=self._columns,
                  min_cell=self._columns)
        self.bind(children=self._columns)

    def _columns(self, *_a) -> None:
        n = max(1, len(self.children))
        fit = int((self.width + self.spacing[0]) // (self.min_cell + self.spacing[0]))
        cols = max(1, min(n, fit))
        rows = -(-n // cols)
        self.cols = -(-n // rows)  # the same count in every row: 4 + 3, not 6 + 1
