"""Cards drawn from vector shapes and font glyphs, so they are sharp at every size.

No bitmaps: a card is a rounded rectangle, its rank and suit are text rendered at the exact
pixel size the card needs (cached), and its back is a lattice of lines. The suit symbols
come from the kiosk font (``assets/fonts``), whose coverage of ♣♦♥♠ the tests check.

Both caches are bounded (:class:`kiosk.texture_cache.TextureCache`): every game layout has
its own card size, so attract mode meets a new size every minute or two, for months. The
card faces of the :data:`FACE_SIZES` most recently drawn sizes are kept (the visitor's
table, the demo's, the welcome screen's showcase), the others are dropped as a whole.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    InstructionGroup,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Rectangle,
    RoundedRectangle,
    Translate,
)
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.widget import Widget

from games.engine.cards import JOKER, RANK, SUIT
from kiosk.platform.boot import FONT_BOLD, FONT_REGULAR
from kiosk.screens.font_ladder import rung
from kiosk.table.geometry import INDEX_DEPTH, INDEX_GAP, INDEX_PAD, INDEX_WIDTH

from .texture_cache import TextureCache, texture_bytes

SUIT_GLYPHS = "♣♦♥♠"
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
INK = {
    "black": (0.08, 0.08, 0.1, 1),
    "red": (0.82, 0.1, 0.12, 1),
    "green": (0.05, 0.5, 0.18, 1),   # four-colour deck: clubs
    "blue": (0.1, 0.3, 0.8, 1),      # four-colour deck: diamonds
}
FACE = (0.99, 0.985, 0.97, 1)
COURT = (0.95, 0.9, 0.78, 1)
BACK = (0.13, 0.27, 0.6, 1)
BACK_LINE = (1, 1, 1, 0.22)
EDGE = (0, 0, 0, 0.35)


def suit_colour(suit: int, four_colour: bool) -> tuple[float, float, float, float]:
    if four_colour:
        return INK[("green", "blue", "red", "black")[suit]]
    return INK["red"] if suit in (1, 2) else INK["black"]


#: rank and suit glyphs and pile labels: a card size needs about 10, a layout's labels a few
TEXT_BYTES = 8 * 2**20
TEXT_ENTRIES = 512
#: card faces: the sizes kept, and bounds that hold 2 decks, a back and jokers of each
#: (at 1920x1080 a card is about 160x224 px, 140 kB: 330 of them are 46 MB)
FACE_SIZES = 3
FACE_ENTRIES = FACE_SIZES * 110
FACE_BYTES = 48 * 2**20

_texts = TextureCache(TEXT_BYTES, TEXT_ENTRIES)


def text_texture(text: str, px: int, bold: bool = True):
    """White text rendered at the rung of the font ladder at most ``px`` pixels (tinted by
    a Color when drawn; cached): every card size drawing its glyphs at sizes of its own
    kept a font face open for each (:mod:`kiosk.screens.font_ladder`)."""
    px = max(4, int(rung(px)))
    key = (text, px, bool(bold))
    tex = _texts.get(key)
    if tex is None:
        # asked for as a bold label asks (Kivy's font cache keys on the size's str and the
        # bold flag: "18" and bold=False were a face of their own beside the labels'
        # "18.0" and bold=True, with the same pixels)
        label = CoreLabel(text=text, font_size=float(px), font_name=str(FONT_BOLD if bold
                          else FONT_REGULAR), bold=bold, color=(1, 1, 1, 1), padding=(0, 0))
        label.refresh()
        tex = label.texture
        _texts.put(key, tex, texture_bytes(*tex.size))
    return tex


def _glyph(group: InstructionGroup, text: str, px: int, cx: float, cy: float,
           rgba, anchor: str = "center", bold: bool = True) -> None:
    """Draw ``text`` with its box anchored at (cx, cy): ``center``, ``topleft``, ``topright``."""
    tex = text_texture(text, int(px), bold)
    w, h = tex.size
    if anchor == "topleft":
        x, y = cx, cy - h
    elif anchor == "topright":
        x, y = cx - w, cy - h
    else:
        x, y = cx - w / 2, cy - h / 2
    group.add(Color(*rgba))
    group.add(Rectangle(texture=tex, pos=(round(x), round(y)), size=(w, h)))


#: font size of a probe glyph whose ink is measured once (the ink scales with the size)
INK_PROBE_PX = 100
_ink: dict[tuple[str, bool], tuple[float, float, float, float]] = {}


def ink_box(text: str, bold: bool = True) -> tuple[float, float, float, float]:
    """Where the visible ink of ``text`` lies in its rendered texture: ``(left, top, right,
    bottom)`` as fractions of the font size, measured from the texture's top-left corner.

    A texture box holds the font's whole line height (about 1.45 of the size, half of it
    empty), so placing or checking a corner index by its box either wastes the strip a fan
    shows or lets the tail of a Q slip under the next card. The ink is read back once per
    glyph from a large probe rendering; every card size then uses the same fractions."""
    key = (text, bool(bold))
    box = _ink.get(key)
    if box is None:
        tex = text_texture(text, INK_PROBE_PX, bold)
        w, h = tex.size
        data = tex.pixels
        rows: list[int] = []
        cols: set[int] = set()
        for y in range(h):
            line = data[y * w * 4:(y + 1) * w * 4]
            hit = [x for x in range(w) if line[x * 4 + 3] > 24]
            if hit:
                rows.append(y)
                cols.update((hit[0], hit[-1]))
        if not rows:  # nothing read back (no GL read-back): the whole box, safe and plain
            box = (0.0, 0.0, w / INK_PROBE_PX, h / INK_PROBE_PX)
        else:
            box = (min(cols) / INK_PROBE_PX, rows[0] / INK_PROBE_PX,
                   (max(cols) + 1) / INK_PROBE_PX, (rows[-1] + 1) / INK_PROBE_PX)
        _ink[key] = box
    return box


@dataclass(frozen=True, slots=True)
class Glyph:
    """One glyph of a card face: its text and size, and its ink's box on the card, in
    pixels from the card's top-left corner (y grows downwards, as a reader scans)."""

    text: str
    px: int
    left: float
    top: float
    right: float
    bottom: float


def _placed(text: str, px: int, left: float | None = None, top: float = 0.0,
            right: float | None = None) -> Glyph:
    """``text`` at ``px`` (its rung of the font ladder, as :func:`text_texture` draws it)
    with its ink's top-left (or top-right) corner at a point."""
    px = max(4, int(rung(px)))
    il, it, ir, ib = ink_box(text)
    w, h = (ir - il) * px, (ib - it) * px
    x0 = left if left is not None else (right or 0.0) - w
    return Glyph(text, px, x0, top, x0 + w, top + h)


def corner_index(code: int, w: float) -> tuple[Glyph, Glyph, Glyph]:
    """The rank, the suit beside it (top right) and the suit under it (left) of a card
    ``w`` pixels wide.

    Sized together with the fan offsets of :mod:`kiosk.table.geometry`: the rank and the
    top-right suit end within ``INDEX_DEPTH`` of the top edge (what a downward fan shows of
    a covered card), the rank and the suit under it within ``INDEX_WIDTH`` of the left edge
    (what a rightward fan shows)."""
    rank, suit = RANK[code], SUIT[code]
    sym = SUIT_GLYPHS[suit]
    pad = w * INDEX_PAD
    room_w = w * INDEX_WIDTH - pad
    room_h = w * INDEX_DEPTH - pad
    text = RANK_TEXT[rank]
    il, it, ir, ib = ink_box(text)
    # the deepest rank (Q's tail) sets the size of every rank, so a column reads evenly;
    # only the two digits of "10" are drawn smaller to stay in the strip a rightward fan shows
    px = int(min(w * 0.31, room_w / (ir - il), room_h / _deepest_rank()))
    rank_glyph = _placed(text, px, left=pad, top=pad)
    sl, st, sr, sb = ink_box(sym)
    top_px = int(min(w * 0.27, room_h / (sb - st)))
    top_suit = _placed(sym, top_px, right=w - pad, top=pad)
    side_px = int(min(w * 0.22, room_w / (sr - sl)))
    # under the strip a downward fan shows, so a covered card's strip holds nothing cut
    side_suit = _placed(sym, side_px, left=pad, top=w * (INDEX_DEPTH + INDEX_GAP + 0.03))
    return rank_glyph, top_suit, side_suit


def _deepest_rank() -> float:
    return max(ink_box(t)[3] - ink_box(t)[1] for t in RANK_TEXT[1:])


def _draw_glyph(group: InstructionGroup, g: Glyph, h: float, rgba) -> None:
    """Draw a placed glyph: its texture is offset so that its ink lands on the glyph's box."""
    tex = text_texture(g.text, g.px, True)
    il, it, _ir, _ib = ink_box(g.text)
    x = g.left - il * g.px
    top = h - (g.top - it * g.px)
    group.add(Color(*rgba))
    group.add(Rectangle(texture=tex, pos=(round(x), round(top - tex.height)), size=tex.size))


def draw_face(group: InstructionGroup, code: int, w: float, h: float,
              four_colour: bool = False) -> None:
    """Instructions for the face of ``code`` in a ``w`` x ``h`` box at the origin."""
    r = max(2.0, w * 0.08)
    group.add(Color(*FACE))
    group.add(RoundedRectangle(pos=(0, 0), size=(w, h), radius=[r]))
    if code >= JOKER:
        ink = INK["red"] if code % 2 == 0 else INK["black"]
        _glyph(group, "★", int(w * 0.62), w / 2, h * 0.52, ink)
        _glyph(group, "JOKER", int(w * 0.17), w / 2, h * 0.16, ink)
        _glyph(group, "★", int(w * 0.26), w * 0.06, h - w * 0.04, ink, "topleft")
    else:
        rank, suit = RANK[code], SUIT[code]
        ink = suit_colour(suit, four_colour)
        sym = SUIT_GLYPHS[suit]
        for g in corner_index(code, w):
            _draw_glyph(group, g, h, ink)
        if rank > 10:
            group.add(Color(*COURT))
            group.add(RoundedRectangle(pos=(w * 0.3, h * 0.1), size=(w * 0.6, h * 0.58),
                                       radius=[r * 0.6]))
            _glyph(group, RANK_TEXT[rank], int(w * 0.42), w * 0.6, h * 0.46, ink)
            _glyph(group, sym, int(w * 0.28), w * 0.6, h * 0.2, ink)
        else:
            big = 0.62 if rank == 1 else 0.5
            _glyph(group, sym, int(w * big), w * 0.57, h * 0.36, ink)
    group.add(Color(*EDGE))
    group.add(Line(rounded_rectangle=(0.5, 0.5, w - 1, h - 1, r), width=1))


def draw_back(group: InstructionGroup, w: float, h: float) -> None:
    """A card back: a blue field with a white frame and a diagonal lattice."""
    r = max(2.0, w * 0.08)
    group.add(Color(*FACE))
    group.add(RoundedRectangle(pos=(0, 0), size=(w, h), radius=[r]))
    m = max(2.0, w * 0.07)
    group.add(Color(*BACK))
    group.add(RoundedRectangle(pos=(m, m), size=(w - 2 * m, h - 2 * m), radius=[r * 0.6]))
    group.add(Color(*BACK_LINE))
    step = max(4.0, w * 0.14)
    x0, y0, x1, y1 = m + 1, m + 1, w - m - 1, h - m - 1
    span = (x1 - x0) + (y1 - y0)
    vertices: list[float] = []
    k = step
    while k < span:
        for sign in (1, -1):
            pts = _diagonal(x0, y0, x1, y1, k, sign)
            if pts:
                vertices += [pts[0], pts[1], 0, 0, pts[2], pts[3], 0, 0]
        k += step
    if vertices:  # one draw call for the whole lattice
        group.add(Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)),
                       mode="lines"))
    group.add(Color(*EDGE))
    group.add(Line(rounded_rectangle=(0.5, 0.5, w - 1, h - 1, r), width=1))


def _diagonal(x0: float, y0: float, x1: float, y1: float, k: float, sign: int):
    """The part inside the box of the 45-degree line at distance ``k`` along its edges."""
    if sign > 0:   # lines going up-right from the left/bottom edges
        a = (x0, y0 + k) if k <= y1 - y0 else (x0 + k - (y1 - y0), y1)
        b = (x0 + k, y0) if k <= x1 - x0 else (x1, y0 + k - (x1 - x0))
    else:          # lines going down-right, mirrored
        a = (x0, y1 - k) if k <= y1 - y0 else (x0 + k - (y1 - y0), y0)
        b = (x0 + k, y1) if k <= x1 - x0 else (x1, y1 - k + (x1 - x0))
    if math.dist(a, b) < 1:
        return None
    return [a[0], a[1], b[0], b[1]]


_faces = TextureCache(FACE_BYTES, FACE_ENTRIES)
#: the card sizes whose faces are cached, least recently drawn first
_face_sizes: OrderedDict[tuple[int, int], None] = OrderedDict()


def _use_size(size: tuple[int, int]) -> None:
    """Mark ``size`` as drawn now; the faces of sizes beyond :data:`FACE_SIZES` go."""
    _face_sizes[size] = None
    _face_sizes.move_to_end(size)
    while len(_face_sizes) > FACE_SIZES:
        old, _ = _face_sizes.popitem(last=False)
        for key in _faces.keys():
            if key[2:4] == old:
                _faces.discard(key)


def cache_sizes() -> dict[str, int]:
    """Entries and bytes of the two caches (the soak bench and the tests read them)."""
    return {"card_faces": len(_faces), "card_face_sizes": len({k[2:4] for k in _faces.keys()}),
            "card_face_bytes": _faces.nbytes, "text_textures": len(_texts),
            "text_texture_bytes": _texts.nbytes}


#: the one framebuffer every card face is drawn in, then copied out (see card_texture)
_canvas: Fbo | None = None


def _drawing_board(w: int, h: int) -> Fbo:
    """The framebuffer faces are drawn in, ``w`` x ``h`` pixels, cleared."""
    global _canvas
    if _canvas is None:
        _canvas = Fbo(size=(w, h))
    elif tuple(_canvas.size) != (w, h):
        _canvas.size = (w, h)
    _canvas.clear()
    with _canvas:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
    return _canvas


def card_texture(code: int, face_up: bool, w: int, h: int, four_colour: bool = False):
    """The card drawn once into a texture of exactly ``w`` x ``h`` pixels (cached).

    A card on the table is then one textured rectangle, so a frame costs two draw calls per
    card instead of a dozen: what keeps dragging a long run smooth on a Pi. The face is drawn
    in one framebuffer shared by all faces and its pixels copied into a plain texture: a
    framebuffer is a render context with its own shader program, which the driver compiles
    at its first draw, about 1.1 MB of driver memory each (Mesa llvmpipe; a plain texture
    costs its pixels). A framebuffer per cached face was 360 MB at the cache's bound, and
    the steps of the attract soak's curve (docs/benchmarks.md)."""
    key = (code if face_up else -1, face_up, w, h, four_colour and face_up)
    _use_size((w, h))
    tex = _faces.get(key)
    if tex is None:
        board = _drawing_board(w, h)
        body = InstructionGroup()
        if face_up:
            draw_face(body, code, w, h, four_colour)
        else:
            draw_back(body, w, h)
        board.add(body)
        board.draw()
        tex = Texture.create(size=(w, h), colorfmt="rgba")
        tex.blit_buffer(board.pixels, colorfmt="rgba", bufferfmt="ubyte")
        board.clear()  # the drawing's instructions go; the board stays for the next face
        _faces.put(key, tex, texture_bytes(w, h))
    return tex


class CardWidget(Widget):
    """One card. Its picture is a cached texture rebuilt only when its face, side or size
    changes; moving it only updates a translation, so dragging a run costs almost nothing."""

    code = NumericProperty(0)
    face_up = BooleanProperty(True)
    four_colour = BooleanProperty(False)

    def __init__(self, code: int, face_up: bool = True, **kw) -> None:
        super().__init__(size_hint=(None, None), **kw)
        self.code = code
        self.face_up = face_up
        with self.canvas.before:
            PushMatrix()
            self._translate = Translate(*self.pos)
        with self.canvas:
            self._shade = Color(0, 0, 0, 0.18)
            self._shadow = RoundedRectangle()
            Color(1, 1, 1, 1)
            self._face = Rectangle()
        with self.canvas.after:
            PopMatrix()
        self.bind(pos=self._move, size=self._redraw, face_up=self._redraw,
                  code=self._redraw, four_colour=self._redraw)
        self._redraw()

    def _move(self, *_a) -> None:
        self._translate.xy = self.pos

    def _redraw(self, *_a) -> None:
        w, h = int(round(self.width)), int(round(self.height))
        if w < 4 or h < 4:
            self._face.size = self._shadow.size = (0, 0)
            return
        self._shadow.pos = (w * 0.015, -h * 0.012)
        self._shadow.size = (w, h)
        self._shadow.radius = [max(2.0, w * 0.08)]
        self._face.texture = card_texture(int(self.code), self.face_up, w, h, self.four_colour)
        self._face.size = (w, h)
