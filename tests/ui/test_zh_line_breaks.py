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
from kiosk.screens.line_break import SHORT_BRACKET, SHORT_QUOTE
from kiosk.screens.text_fit import PHRASE_END, SHORT_TEXT_LINES, wrap_text

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


def line_problems(lines: list[str], message: bool = True) -> list[str]:
    """Where a reader of ``lines`` would stumble (empty: nowhere). ``message``: a short
    text of the kiosk's own (a game's rules keep the greedy fill, see below)."""
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
        bra = re.search(r"[（《【]([^）》】]*)$", a)
        ket = re.match(r"([^（《【]*)[）》】]", b)
        if bra and ket and len(bra.group(1)) + len(ket.group(1)) <= SHORT_BRACKET:
            out.append(f"a short bracketed term split: {a[-8:]} / {b[:8]}")
        # a message of a few lines never leaves one character alone before its phrase's
        # end ("继 / 续。"); a rules sheet's paragraphs keep the greedy fill
        short = message and len(lines) <= SHORT_TEXT_LINES
        # ("甲" stands for a placeholder, a number here: "{target} 分" keeps its measure)
        if short and _han(a[-1]) and "甲" not in (a[-1], b[0]) and _han(b[0]) \
                and (len(b) == 1 or b[1] in PHRASE_END):
            out.append(f"one character left alone before its phrase's end: {a[-8:]} / {b[:8]}")
    return out


def test_the_reported_breaks_are_gone(ui):
    font = ui.app.table.status.font_name
    px = 18
    for text, narrow in (("共玩了 1 局。", "共玩了 1"), ("把牌接到电脑的牌组上：点一张牌，再点它能接上的牌组。接完点“完成”。",
                                                         "再点它能接上的牌组。接"),
                         # the picker's tile, the Gin leave panel and the idle warning
                         ("克朗代克（梯阵通关）", "克朗代克（梯阵通"),
                         ("你的牌局会保留：再次选择这个游戏即可继续。", "你的牌局会保留：再次选择这个游戏即可继"),
                         ("触摸屏幕即可继续。12 秒后回到开始画面。", "触摸屏幕即可继续。12 秒后回到开")):
        from kiosk.screens.text_fit import text_width

        width = text_width(narrow, px, font) + 1
        lines = wrap_text(text, px, width, font)
        assert not line_problems(lines), lines
        assert not any(a.endswith(("通", "继", "开")) for a in lines[:-1]), lines


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
                lines = wrap_text(paragraph, px, em * chars + 1, font)
                for p in line_problems(lines, message=".po" in where):
                    problems.append(f"{where} at {chars} characters: {p}")
    assert not problems, "\n".join(sorted(set(problems))[:40]) + f"\n({len(problems)} in all)"


def test_chinese_texts_quote_with_chinese_marks():
    found = [f"{where}: {m.group(0)!r}" for where, text in zh_texts()
             for m in re.finditer(r".{0,6}[\"'].{0,6}", text)]
    assert not found, "\n".join(found)


def _shown_lines(root) -> list[tuple[str, list[str]]]:
    from kiosk.screens.text_fit import FitLabel

    return [(str(w.text), [ln.strip() for ln in w.shown.split("\n") if ln.strip()])
            for w in root.walk(restrict=True) if isinstance(w, FitLabel) and w.shown]


def test_the_reported_breaks_are_gone_from_their_screens(ui):
    """Where they were seen: "克朗代克（梯阵通 / 关）" on the picker's tile, "继 / 续。" on the Gin
    leave panel and "回到开 / 始画面" on the idle warning, at 720x1280 (and 800x480)."""
    from kiosk.screens.idle_warning import IdleWarning

    problems = []
    for size in ((720, 1280), (800, 480)):
        ui.reset("zh", size)
        app = ui.app
        app.show_picker("klondike")
        ui.frames(3)
        shown = _shown_lines(app.picker)
        app.open_game("gin_rummy", 3)
        ui.frames(2)
        app.gin.ask_leave()
        ui.frames(2)
        shown += _shown_lines(app.gin.end)
        app.gin.stay()
        warning = IdleWarning(app.lobby.clock)
        warning.show(ui.window, 12)
        ui.frames(2)
        shown += _shown_lines(warning)
        warning.hide()
        for text, lines in shown:
            problems += [f"{size} {text[:20]!r}: {p}" for p in line_problems(lines)]
            problems += [f"{size} {text[:20]!r}: {a} / {b}"
                         for a, b in zip(lines, lines[1:], strict=False)
                         if (a[-1:], b[:1]) in (("通", "关"), ("继", "续"), ("开", "始"))]
    assert not problems, "\n".join(problems)
