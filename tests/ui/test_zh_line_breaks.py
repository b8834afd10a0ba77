"""Chinese texts break where a reader does not stumble, at every width a label may have:
a number keeps its measure word ("共玩了 1 / 局。" was drawn), no line ends with an opening
quote or bracket nor starts with closing punctuation, no short quoted term is split ("“明 /
牌”"), and no line ends with the first one or two characters of a new phrase ("…牌组。接 /
完点…"). Every Chinese text: the games' names, descriptions and rules, the app's and
the engine's catalogs (placeholders filled with numbers). And Chinese texts quote with “ ” or 「」, never with ASCII quotes."""

from __future__ import annotations

import re

import pytest

import games
from games.engine import game_texts
from kiosk.i18n import DOMAINS, catalog
from kiosk.screens.line_break import SHORT_QUOTE
from kiosk.screens.text_fit import PHRASE_END, wrap_text

NO_START = "，。、；：？！）」』】〕》〉’”…"
NO_END = "（「『【〔《〈‘“"
#: widths in characters of the reading size: a narrow portrait button to a rules sheet
WIDTHS = range(8, 35, 3)


def _han(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff"


def zh_texts() -> list[tuple[str, str]]:
    """(where, text) for every Chinese text a visitor or operator may read."""
    out = []
    for gid in games.ids():
        t = game_texts.texts(gid)
        for field in ("names", "description", "rules"):
            out.append((f"{gid} {field}", getattr(t, field)["zh"]))
    for domain in DOMAINS:
        for msgid, text in catalog("zh", domain).items():
            # a placeholder stands for a number (counts, deals, scores) or a word
            filled = re.sub(r"\{(n|count|seed|moves|score|chips|total|k|points)\}", "12",
                            text)
            out.append((f"{domain}.po {msgid[:30]!r}", re.sub(r"\{\w+\}", "甲", filled)))
    return out


def line_problems(lines: list[str]) -> list[str]:
    """Where a reader of ``lines`` would stumble (empty: nowhere)."""
    out = []
    for a, b in zip(lines, lines[1:], strict=False):
        a, b = a.rstrip(), b.lstrip()
        if not a or not b:
            continue
        if a[-1].isdigit() and _han(b[0]):
            out.append(f"a number parted from its measure word: {a[-8:]} / {b[:8]}")
        if a[-1] in NO_END:
            out.append(f"a line ends with an opening mark: {a[-8:]} / {b[:8]}")
        if b[0] in NO_START:
            out.append(f"a line starts with a closing mark: {a[-8:]} / {b[:8]}")
        opened = re.search(r"[“「『]([^”」』]*)$", a)
        closed = re.match(r"([^“「『]*)[”」』]", b)
        if opened and closed and len(opened.group(1)) + len(closed.group(1)) <= SHORT_QUOTE:
            out.append(f"a short quoted term split: {a[-8:]} / {b[:8]}")
        stub = re.search(r"[" + "".join(PHRASE_END) + r"]([\u3400-\u9fff]{1,2})$", a)
        if stub and _han(b[0]):
            out.append(f"a phrase's first characters end a line: {a[-8:]} / {b[:8]}")
    return out


def test_the_reported_breaks_are_gone(ui):
    font = ui.app.table.status.font_name
    px = 18
    for text, narrow in (("共玩了 1 局。", "共玩了 1"), ("把牌接到电脑的牌组上：点一张牌，再点它能接上的牌组。接完点“完成”。",
                                                         "再点它能接上的牌组。接")):
        from kiosk.screens.text_fit import text_width

        width = text_width(narrow, px, font) + 1
        lines = wrap_text(text, px, width, font)
        assert not line_problems(lines), lines


@pytest.mark.timeout(300)
def test_every_chinese_text_breaks_where_a_reader_expects(ui):
    from kiosk.screens.text_fit import text_width

    font = ui.app.table.status.font_name
    px = 18
    em = text_width("牌", px, font)
    problems = []
    for where, text in zh_texts():
        for paragraph in text.split("\n"):  # a line end the text asks for is no problem
            for chars in WIDTHS:
                for p in line_problems(wrap_text(paragraph, px, em * chars + 1, font)):
                    problems.append(f"{where} at {chars} characters: {p}")
    assert not problems, "\n".join(sorted(set(problems))[:40]) + f"\n({len(problems)} in all)"


def test_chinese_texts_quote_with_chinese_marks():
    found = [f"{where}: {m.group(0)!r}" for where, text in zh_texts()
             for m in re.finditer(r".{0,6}[\"'].{0,6}", text)]
    assert not found, "\n".join(found)
