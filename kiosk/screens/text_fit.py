"""Text that fits its box in every language: Unicode line breaking, shrink, then an ellipsis.

Kivy's own wrapping breaks only at spaces and cuts a word that is too long anywhere, so
Chinese (no spaces) was split inside words, with a "）" alone on a line or a line starting
with "，", and text too long for its box simply stopped, mid-sentence. Here the break
opportunities come from Unicode's line breaking algorithm (UAX #14, which carries the CJK
rules: no line starts with a closing bracket or a comma, none ends with an opening bracket),
:mod:`kiosk.screens.line_break`; the lines are filled greedily with the font's real advance widths and
handed to Kivy already broken. A text too big for its box is drawn smaller, down to the
floor a visitor can still read (:data:`READ_PX`), from rung to rung of one short ladder of
sizes (:mod:`kiosk.screens.font_ladder`: each size is a font face Kivy keeps open), and only
then shortened with "…".
"""

from __future__ import annotations

import re
from functools import lru_cache

from kivy.core.text import Label as CoreLabel
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.label import Label

from kiosk.screens.font_ladder import rung, rungs_between
from kiosk.screens.line_break import break_units as uax14_units

#: the smallest text a visitor must read, in px per unit (a unit is the short side / 480):
#: 18 px at 800x480 gives a 13 px cap height, 2.5 mm on a 7" panel at arm's length
READ_PX = 18.0
#: the smallest touch target, in px per unit (9 mm on a 7" panel), and the gap between two
TOUCH_PX = 48.0
TOUCH_GAP = 6.0
ELLIPSIS = "…"
#: list bullets are glued to the word they introduce (UAX #14 lets a line end after one)
BULLETS = frozenset("・•·●-–—")


@lru_cache(maxsize=128)
def _core(px: float, font_name: str, bold: bool) -> CoreLabel:
    # float: Kivy keys its font faces on str(size), and a label's size is a float
    return CoreLabel(font_size=float(px), font_name=font_name, bold=bold)


@lru_cache(maxsize=16384)
def text_width(text: str, px: float, font_name: str, bold: bool = False) -> float:
    """Advance width of one line of ``text`` (no rendering: the font's metrics)."""
    if not text:
        return 0.0
    return float(_core(px, font_name, bold).get_extents(text)[0])


@lru_cache(maxsize=256)
def line_px(px: float, font_name: str, bold: bool = False) -> float:
    """Height of one line at ``px``, as Kivy lays it (the font's ascent plus descent)."""
    return float(_core(px, font_name, bold).get_extents("Ag")[1])


def break_units(paragraph: str) -> list[str]:
    """The pieces between the line break opportunities of ``paragraph`` (UAX #14), with a
    lone bullet joined to what follows."""
    units = uax14_units(paragraph)
    out: list[str] = []
    carry = ""
    for unit in units:
        if unit.strip() and set(unit.strip()) <= BULLETS:
            carry += unit
            continue
        out.append(carry + unit)
        carry = ""
    if carry:
        out.append(carry)
    return out


def wrap_text(text: str, px: float, width: float, font_name: str,
              bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width``; existing newlines are kept.

    A single unit wider than ``width`` (a long word in a narrow box) is cut between
    characters as a last resort: :func:`fit` shrinks the text before that happens."""
    return _wrap(text, px, width, font_name, bold)[0]


def balanced_width(text: str, px: float, width: float, font_name: str,
                   bold: bool = False) -> float:
    """The narrowest width at most ``width`` that breaks ``text`` into as many lines as
    ``width`` does: a message of two lines gets two lines of about the same length, not a
    full line and its last word alone under it."""
    lines, cut = _wrap(text, px, width, font_name, bold)
    if len(lines) < 2 or cut:
        return width
    lo, hi = width / len(lines), width
    for _ in range(10):  # to within a thousandth of the width
        mid = (lo + hi) / 2
        trial, cut = _wrap(text, px, mid, font_name, bold)
        if len(trial) == len(lines) and not cut:
            hi = mid
        else:
            lo = mid
    return hi


def _space_units(paragraph: str) -> list[str]:
    return [m.group(0) for m in re.finditer(r"\S+\s*|\s+", paragraph)]


def _glue_numbers(units: list[str]) -> list[str]:
    out: list[str] = []
    for unit in units:
        if out and unit[:1].isdigit():
            out[-1] += unit
        else:
            out.append(unit)
    return out


def _wrap(text: str, px: float, width: float, font_name: str,
          bold: bool = False, glue_numbers: bool = False,
          words_only: bool = False, ellipsize: bool = False) -> tuple[list[str], bool]:
    """The lines, and whether a word had to be cut to make them. ``glue_numbers``: a
    number stays with the word before it ("Осталось карт:" never parts from its "35").
    ``words_only``: break at spaces only (a button's "新的一局" is one word: it shrinks
    rather than splits). ``ellipsize``: a word wider than the box is shortened with "…"
    instead of cut over two lines (the last resort, at the smallest size)."""
    lines: list[str] = []
    cut_word = False
    cut = _ellipsize if ellipsize else _cut_to_fit
    for paragraph in text.split("\n"):
        def fits(t: str) -> bool:
            return text_width(t, px, font_name, bold) <= width

        if fits(paragraph.rstrip()):  # one line, as the greedy fill below would make it
            lines.append(paragraph.rstrip())  # (no break opportunities needed: no uniseg)
            continue

        def fill(part: str) -> tuple[list[str], bool]:
            units = _space_units(part) if words_only else break_units(part)
            if glue_numbers:
                units = _glue_numbers(units)
            return _fill(units, fits, cut)

        filled, cut_here = fill(paragraph)
        if not cut_here and not words_only:
            filled = _chinese_ends(filled, fits, fill)
        lines += filled
        cut_word = cut_word or cut_here
    return lines, cut_word


def _fill(units: list[str], fits, cut) -> tuple[list[str], bool]:
    """The units laid greedily into lines that fit, and whether a word had to be cut."""
    lines: list[str] = []
    cut_word = False
    line = ""
    for unit in units:
        trial = line + unit
        if not line or fits(trial.rstrip()):
            line = trial
            continue
        head, tail = _phrase_start(line)
        if tail and fits((tail + unit).rstrip()):
            lines.append(head.rstrip())
            line = tail + unit
            continue
        lines.append(line.rstrip())
        pieces, line = cut(unit, fits)
        lines += pieces
        cut_word = cut_word or bool(pieces)
    pieces, line = cut(line, fits)
    lines += pieces
    cut_word = cut_word or bool(pieces)
    lines.append(line.rstrip())
    return lines, cut_word


#: a short Chinese text (a message, a button's line) this many lines at most is broken at
#: its phrase ends where it can be (longer ones, a rules sheet, keep the greedy fill)
SHORT_TEXT_LINES = 4
#: the most characters after a line's last phrase end that move down to break there
PHRASE_TAIL = 8


def _chinese_ends(lines: list[str], fits, fill) -> list[str]:
    """A short Chinese text broken where a reader does not stumble, in no more lines than
    the greedy fill: at a phrase end rather than a few characters after it ("…继续。12 秒后
    回到开 / 始画面。" becomes "…继续。/ 12 秒后回到开始画面。"), and never with one
    character left alone before the phrase's end ("…即可继 / 续。" becomes "…即可 / 继续。").
    Han characters may break between any two (UAX #14); the words they make may not."""
    if len(lines) < 2 or len(lines) > SHORT_TEXT_LINES \
            or not any(_han(c) for line in lines for c in line):
        return lines
    out = list(lines)
    i = 0
    while i < len(out) - 1:
        line = out[i]
        k = max((j for j, ch in enumerate(line[:-1]) if ch in PHRASE_END), default=-1)
        tail = line[k + 1:] if k >= 0 else ""
        if tail.strip() and len(tail) <= PHRASE_TAIL:
            rest, _cut = fill(_joined([tail, *out[i + 1:]]))
            if i + 1 + len(rest) <= len(out):
                out = out[:i] + [line[:k + 1]] + rest
        i += 1
    i = 0
    while i + 1 < len(out):
        i += 1
        prev, nxt = out[i - 1], out[i]
        orphan = nxt[:1] and _han(nxt[0]) and (len(nxt) == 1 or nxt[1] in PHRASE_END)
        last = break_units(prev)[-1] if orphan and prev else ""
        if not last or len(last) >= len(prev) or not _han(last[-1]):
            continue
        # the last piece of the line above goes down with it (a whole piece: "48张" stays),
        # and with it what it would leave of a new phrase ("。任意 / 牌局：")
        head, stub = _phrase_start(prev[:-len(last)])
        if head.strip():
            rest, _cut = fill(_joined([stub + last + nxt, *out[i + 1:]]))
            if i + len(rest) <= len(out) + 1:  # a line more rather than "继 / 续。"
                out = [*out[:i - 1], head.rstrip(), *rest]
    return out


def _joined(lines: list[str]) -> str:
    """Lines back into one text: a space where one was taken off a line's end between two
    words, none between Chinese characters."""
    text = ""
    for line in lines:
        if text and line and not (_wide(text[-1]) or _wide(line[0])):
            text += " "
        text += line
    return text


def _wide(ch: str) -> bool:
    return _han(ch) or ch in PHRASE_END or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"


#: Chinese punctuation that ends a phrase; a line may end there without a reader stumbling
PHRASE_END = frozenset("。，、；：！？")
#: the most Han characters of a new phrase left at the end of a line ("…牌组。接 / 完点…"
#: reads as a broken word; "…牌组。/ 接完点…" does not)
PHRASE_STUB = 2


def _phrase_start(line: str) -> tuple[str, str]:
    """``line`` split after its last Chinese phrase end when no more than
    :data:`PHRASE_STUB` Han characters follow it (they move to the next line); else
    (line, "")."""
    text = line.rstrip()
    for k in range(len(text) - 1, max(-1, len(text) - PHRASE_STUB - 2), -1):
        ch = text[k]
        if ch in PHRASE_END:
            stub = text[k + 1:]
            if stub and all(_han(c) for c in stub):
                return text[:k + 1], stub
            return line, ""
        if not _han(ch):
            return line, ""
    return line, ""


def _han(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _ellipsize(line: str, fits) -> tuple[list[str], str]:
    """A line (a single word, or a word at its start) wider than the box, shortened to what
    fits followed by "…": no pieces cut off to other lines."""
    if len(line) <= 1 or fits(line.rstrip()):
        return [], line
    word = line.rstrip()
    end = len(word) - 1
    while end > 1 and not fits(word[:end].rstrip() + ELLIPSIS):
        end -= 1
    return [], word[:end].rstrip() + ELLIPSIS + line[len(word):]


def _cut_to_fit(line: str, fits) -> tuple[list[str], str]:
    """Pieces cut off a word wider than the box, and the rest of it, which fits (or is a
    single character)."""
    pieces: list[str] = []
    while len(line) > 1 and not fits(line.rstrip()):
        cut = len(line) - 1
        while cut > 1 and not fits(line[:cut]):
            cut -= 1
        pieces.append(line[:cut])
        line = line[cut:]
    return pieces, line


def fits(lines: list[str], px: float, width: float, height: float, font_name: str,
         bold: bool, line_height: float = 1.0) -> bool:
    tall = len(lines) * line_px(px, font_name, bold) * line_height
    wide = max((text_width(ln, px, font_name, bold) for ln in lines), default=0.0)
    return tall <= height + 0.5 and wide <= width + 0.5


def shorten(lines: list[str], px: float, width: float, height: float, font_name: str,
            bold: bool, line_height: float = 1.0) -> list[str]:
    """The lines that fit ``height``, the last one ending in an ellipsis."""
    per = max(1, int((height + 0.5) // (line_px(px, font_name, bold) * line_height)))
    if len(lines) <= per:
        return lines
    kept = lines[:per]
    last = kept[-1].rstrip(" ,.;:，。；：、")
    while last and text_width(last + ELLIPSIS, px, font_name, bold) > width:
        last = last[:-1].rstrip()
    kept[-1] = last + ELLIPSIS
    return kept


#: a word that does not fit its box at the reading floor is drawn smaller still, down to
#: this share of the floor, rather than cut in two ("Подска / зка")
WORD_FLOOR = 0.8


def fit(text: str, want: float, floor: float, width: float, height: float | None,
        font_name: str, bold: bool = False, line_height: float = 1.0,
        glue_numbers: bool = False, words_only: bool = False) -> tuple[str, float]:
    """The text as drawn and its size: the largest rung of the ladder
    (:mod:`kiosk.screens.font_ladder`) from ``want`` down to ``floor`` at which it fits
    ``width`` x ``height``, else at ``floor`` with an ellipsis. ``height`` None: as many
    lines as it takes (a box that grows). Sizes off the ladder would each open a font face
    of their own; ``floor`` is the one exception (a reading floor is not rounded below)."""
    floor = rung(want) if floor >= want else floor  # no room to shrink: want's own rung
    sizes = rungs_between(floor, want)
    if width <= 1 or not text:
        return text, sizes[0]
    # a word wider than the box at the floor: smaller still, to WORD_FLOOR of it
    word_sizes = [s for s in rungs_between(floor * WORD_FLOOR, floor, keep_low=False)
                  if s < floor - 1e-6]
    lines: list[str] = []
    cut_word = False
    px = sizes[0]
    for px in sizes + word_sizes:
        lines, cut_word = _wrap(text, px, width, font_name, bold, glue_numbers, words_only)
        if not cut_word and (height is None or
                             fits(lines, px, width, height, font_name, bold, line_height)):
            return "\n".join(lines), px
        if px <= floor + 1e-6 and not cut_word:
            break
    if cut_word:  # too wide even at the smallest size: "Подск…", never "Подска / зка"
        lines, _cut = _wrap(text, px, width, font_name, bold, glue_numbers, words_only,
                            ellipsize=True)
    if height is None:
        return "\n".join(lines), px
    return "\n".join(shorten(lines, px, width, height, font_name, bold, line_height)), px


def fit_slack(px: float) -> float:
    """The width a :class:`FitLabel` keeps unused on each line at ``px``: Kivy measures a
    line word by word, a few pixels wider than the whole line, and the slack keeps it from
    breaking a line again that was measured to fit. A box sized to hold one line adds it."""
    return max(2.0, 0.15 * px)


class FitLabel(Label):
    """A label that breaks its text by Unicode's rules and fits it into its own box.

    ``text`` and ``font_size`` are set as for any label and ``text`` keeps the whole text
    wanted; what is drawn is :attr:`shown` (``text`` broken into lines, maybe shortened)
    at a ``font_size`` that may be smaller than wanted (``want_font``), never below
    ``min_font``. ``inset`` is the room kept free at the left and the right (a button's
    rounded edge)."""

    shown = StringProperty("")
    want_font = NumericProperty(15.0)
    min_font = NumericProperty(0.0)
    inset = NumericProperty(0.0)
    #: "box": fit width and height; "grow": fit the width, the height follows the text
    mode = StringProperty("box")
    #: a number stays with the word before it (a status line's label and its value)
    glue_numbers = BooleanProperty(False)
    #: break at spaces only, never inside a run of Chinese (a short button label)
    words_only = BooleanProperty(False)
    #: room above and below the text in "grow" mode
    pad_y = NumericProperty(0.0)

    def __init__(self, **kw) -> None:
        self._fitting = True
        kw.setdefault("halign", "left")
        kw.setdefault("valign", "middle")
        super().__init__(**kw)
        self.want_font = self.font_size
        self._fitting = False
        self._fit_width = -1.0
        self.bind(size=self._resized, inset=self._refit, min_font=self._refit,
                  mode=self._refit, bold=self._refit, font_name=self._refit)
        self._refit()

    def _trigger_texture_update(self, name=None, source=None, value=None):
        if name == "text" and source:  # the core label draws what fits, not the text
            if not getattr(self, "_fitting", True):
                self._refit()
            return
        if source is not None and name:
            # _refit sets font_size again while its change is still being dispatched (it
            # shrinks the size just given): the newer value reaches this handler first, the
            # stale one last, and the core label would draw the word at the stale size,
            # split by Kivy ("Подска / зка"). The property holds the value that counts.
            value = getattr(self, name)
        super()._trigger_texture_update(name, source, value)

    def on_font_size(self, *_a) -> None:
        if not self._fitting:
            self.want_font = self.font_size
            self._refit()

    def _resized(self, *_a) -> None:
        if self.mode == "grow" and self.width == self._fit_width:
            return  # its own height, following the text
        self._refit()

    @property
    def floor(self) -> float:
        """The smallest size the text may take: ``min_font``, or without one the size
        wanted, taken down to its rung (every size drawn is a rung)."""
        return self.min_font or rung(self.want_font)

    def _refit(self, *_a) -> None:
        if self._fitting:
            return
        width = self.width - 2 * self.inset
        if width < 4:
            return
        grow = self.mode == "grow"
        self._fit_width = self.width
        height = None if grow else max(1.0, self.height)
        text, px = fit(str(self.text), self.want_font, self.floor,
                       width - fit_slack(self.want_font), height,
                       self.font_name, self.bold, self.line_height, self.glue_numbers,
                       self.words_only)
        self._fitting = True
        try:
            self.font_size = px
            # centred text gets no height to lay out in: Kivy, given one, drops the last of
            # n lines broken by "\n" unless it holds n + 1 ("继续。" gone from a 3-line panel
            # text in 165 px at 44 px a line); the texture is drawn centred in the box anyway
            self.text_size = (width, None if grow or self.valign == "middle" else self.height)
            self.shown = text
            self._label.text = text
        finally:
            self._fitting = False
        self._trigger_texture()
        if grow:
            self.texture_update()
            self.height = max(self.texture_size[1], px * 1.2) + 2 * self.pad_y

    def is_cut(self) -> bool:
        """True when the text drawn is shorter than the text wanted (then it ends in …)."""
        return _squash(self.shown) != _squash(str(self.text))


class LadderLabel(Label):
    """A plain label (no fitting) whose size is always a rung of the ladder: any size it is
    given is taken down to its rung (:func:`~kiosk.screens.font_ladder.rung`), so a label
    sized ``19 * unit`` does not open a font face of its own."""

    def on_font_size(self, _w, px: float) -> None:
        snapped = rung(px)
        if snapped != px or not isinstance(px, float):  # 18 and 18.0 are two faces' keys
            self.font_size = snapped

    def _trigger_texture_update(self, name=None, source=None, value=None):
        if source is not None and name:  # the snapped size, not the one being replaced
            value = getattr(self, name)
        super()._trigger_texture_update(name, source, value)


def _squash(text: str) -> str:
    return "".join(text.split())
