"""Where a line may break: the pair rules of Unicode's line breaking algorithm (UAX #14).

The characters' line break classes come from ``uniseg``'s Unicode data (a maintained
library); the rules that pair them are applied here, because uniseg's own rule engine
takes 0.6 s for the 1000 characters of a Russian rules sheet on a desktop (seconds on a
Pi), and a sheet must open at once. Implemented: LB1 (class resolution), LB4-LB8 (hard
breaks, spaces, zero width space), LB9 (combining marks), LB11-LB31 for the classes a
kiosk text uses: Latin and Cyrillic words, digits, punctuation, and the CJK rules (no line
starts with "，", "。" or a closing bracket, none ends with an opening one; Han characters
break between each other), plus one tailoring UAX #14 allows: a number keeps the
Chinese measure word after it ("共玩了 1 局" never ends a line with "1"), and a short
quoted or bracketed Chinese term stays whole ("“明牌”", "（梯阵通关）"). Not
implemented: the emoji, Hangul syllable and regional indicator rules (no such text here)
and LB25's full number grammar (a simpler form).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_ALPHA = {"AL", "HL"}
_IDEO = {"ID", "EB", "EM"}


@lru_cache(maxsize=8192)
def line_class(ch: str) -> str:
    """The resolved line break class of ``ch`` (LB1). uniseg is imported at the first text
    that has to be broken (its tables and metadata were a tenth of the kiosk's start)."""
    from uniseg.linebreak import line_break as uniseg_class

    cls = str(uniseg_class(ch))
    if cls in ("AI", "SG", "XX", "SA"):
        return "AL"
    if cls == "CJ":
        return "NS"
    return cls


def _pair_breaks(before: str, after: str, before_sp: bool, quotes_part: bool = False,
                 wide_after: bool = False) -> bool:
    """May a line break between classes ``before`` and ``after``? ``before`` is the last
    class ahead of any spaces, ``before_sp`` whether spaces lie between (LB14-LB18).
    ``quotes_part``: a quotation mark here stands between East Asian characters (LB19a);
    ``wide_after``: the character after is full width (LB30 leaves those out)."""
    b, a = before, after
    if a in ("SP", "ZW"):
        return False                                  # LB7
    if b == "ZW":
        return True                                   # LB8
    if a == "WJ" or (b == "WJ" and not before_sp):
        return False                                  # LB11
    if b == "GL" and not before_sp:
        return False                                  # LB12
    if a == "GL" and not before_sp and b not in ("BA", "HY"):
        return False                                  # LB12a
    if a in ("CL", "CP", "EX", "IS", "SY"):
        return False                                  # LB13
    if b == "OP":
        return False                                  # LB14 (also across spaces)
    if b in ("CL", "CP") and a == "NS":
        return False                                  # LB16
    if b == "B2" and a == "B2":
        return False                                  # LB17
    if b == "NU" and a in _IDEO:
        return False                                  # a number keeps its measure word
    if before_sp:
        return True                                   # LB18
    if (a == "QU" or b == "QU") and not quotes_part:
        return False                                  # LB19
    if a == "CB" or b == "CB":
        return True                                   # LB20
    if a in ("BA", "HY", "NS") or b == "BB":
        return False                                  # LB21
    if a == "IN":
        return False                                  # LB22
    if (b in _ALPHA and a == "NU") or (b == "NU" and a in _ALPHA):
        return False                                  # LB23
    if (b == "PR" and a in _IDEO) or (b in _IDEO and a == "PO"):
        return False                                  # LB23a
    if (b in ("PR", "PO") and a in _ALPHA) or (b in _ALPHA and a in ("PR", "PO")):
        return False                                  # LB24
    if (b in ("PR", "PO") and a in ("NU", "OP", "HY")) or (b in ("OP", "HY") and a == "NU") \
            or (b == "NU" and a in ("NU", "SY", "IS", "CL", "CP", "PO", "PR")) \
            or (b in ("SY", "IS") and a == "NU"):
        return False                                  # LB25 (simplified: "0.1.0", "22:29")
    if b in _ALPHA and a in _ALPHA:
        return False                                  # LB28
    if b == "IS" and a in _ALPHA:
        return False                                  # LB29
    if (b in _ALPHA | {"NU"} and a == "OP" and not wide_after) or \
            (b == "CP" and a in _ALPHA | {"NU"}):
        return False                                  # LB30
    return True                                       # LB31


def _east_asian(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("F", "W", "H")


def _quotes_part(text: str, i: int, before: str, spaces: bool) -> bool | None:
    """LB15a/b and LB19a at ``text[i]``: False when a quotation mark forbids a break here
    (an opening quote never ends a line, a closing one never starts one); True when the
    mark here is a typographic one between East Asian characters (Chinese “…”), which may
    part from its neighbours; None when no quotation mark is involved."""
    prev_ch, ch = text[i - 1], text[i]
    quote_before = line_class(prev_ch) == "QU" or (spaces and before == "QU")
    if quote_before and unicodedata.category(_last_quote(text, i)) == "Pi":
        return False
    if line_class(ch) == "QU" and unicodedata.category(ch) == "Pf":
        return False
    if line_class(ch) == "QU":       # a break before a quote
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if unicodedata.category(ch) == "Pi" and _east_asian(prev_ch) and nxt and \
                _east_asian(nxt):
            return True
        return None
    if quote_before and not spaces:  # a break after a quote
        before_quote = text[i - 2] if i >= 2 else ""
        if unicodedata.category(prev_ch) == "Pf" and before_quote and \
                _east_asian(before_quote) and _east_asian(ch):
            return True
    return None


def _last_quote(text: str, i: int) -> str:
    k = i - 1
    while k > 0 and line_class(text[k]) == "SP":
        k -= 1
    return text[k]


def break_units(paragraph: str) -> list[str]:
    """``paragraph`` cut at every line break opportunity; each piece keeps its trailing
    spaces, so joining the pieces gives the paragraph back."""
    units: list[str] = []
    start = 0
    prev = ""        # class of the last character ahead of the current run of spaces
    spaces = False
    for i, ch in enumerate(paragraph):
        cls = line_class(ch)
        if cls in ("CM", "ZWJ") and prev and not spaces:
            continue                                  # LB9: a mark takes its base's class
        if cls in ("CM", "ZWJ"):
            cls = "AL"                                # LB10
        if i > 0 and prev:
            part = _quotes_part(paragraph, i, prev, spaces) if "QU" in (prev, cls) else None
            may = part is not False and _pair_breaks(prev, cls, spaces, bool(part),
                                                     _east_asian(ch))
            if may:
                units.append(paragraph[start:i])
                start = i
        if cls == "SP":
            spaces = True
        else:
            prev, spaces = cls, False
    if start < len(paragraph):
        units.append(paragraph[start:])
    return _keep_short_quotes(paragraph, units)


#: a Chinese term in quotes this short stays on one line ("“明 / 牌”" read as two words)
SHORT_QUOTE = 4
_QUOTED = re.compile(r"[“「『]([^”」』\n]{1,%d})[”」』]" % SHORT_QUOTE)  # noqa: UP031
#: so does a short term in brackets ("克朗代克（梯阵通 / 关）" in the picker)
SHORT_BRACKET = 4
_BRACKETED = re.compile(r"[（《【]([^）》】\n]{1,%d})[）》】]" % (2 * SHORT_BRACKET))  # noqa: UP031


def _keep_short_quotes(paragraph: str, units: list[str]) -> list[str]:
    """``units`` without the breaks inside a short quoted or bracketed Chinese term."""
    if len(units) < 2 or not (_QUOTED.search(paragraph) or _BRACKETED.search(paragraph)):
        return units
    inside = set()
    terms = [*_QUOTED.finditer(paragraph),
             *(m for m in _BRACKETED.finditer(paragraph)  # spaces not counted: "（★ 为默认）"
               if len("".join(m.group(1).split())) <= SHORT_BRACKET)]
    for m in terms:
        inside.update(range(m.start() + 1, m.end()))
    out: list[str] = []
    at = 0
    for unit in units:
        if out and at in inside:
            out[-1] += unit
        else:
            out.append(unit)
        at += len(unit)
    return out
