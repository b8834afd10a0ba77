"""Lines break where Unicode's line breaking algorithm (UAX #14) allows, in every language.

The pair rules (kiosk.screens.line_break) are checked against uniseg's complete
implementation of the algorithm; the laid-out rules sheets and picker descriptions are
checked for the CJK rules a reader notices: no line starts with a closing bracket or a
comma, none ends with an opening bracket, no bullet stands alone.
"""

from __future__ import annotations

import pytest
from uniseg.linebreak import line_break_units

import games
from kiosk.screens.line_break import _keep_short_quotes, break_units

#: no line starts with these (UAX #14 classes CL, CP, EX, IS, NS and the like) ...
NO_START = "，。、；：？！）」』】〕》〉’”・…%,.;:!?)]}»"
#: ... and none ends with these (OP, opening quotes)
NO_END = "（「『【〔《〈‘“([{«"
BULLETS = "•・"

SAMPLES = [
    "目标：把52张牌全部移到4个基础堆上，每堆同花色从A依次叠到K。",
    "• 空列只能放K（或以K开头的一组牌）。",
    "选项：一次翻3张，可重翻2次或不限；“简易”（不论颜色叠放，空列可放任何牌）。",
    "金字塔——配十三：两张牌凑成13就拿掉。",
    "Осталось карт: 35 — «Прекрасная Люси» (без пересдач), 1-2 раза.",
    "Napoleon's Tomb (Russian, reconstructed): build 7-8-9-10 \"up\" and 6-5-4-3-2-A down.",
    # a version and its build time stay whole ("22:" at a line's end, "29)." below it, on
    # the Software update page at 720x1280)
    "This kiosk runs version 0.1.0 (2026-12-06 22:29), 10/12 a.5 x:9.",
]


def _game_paragraphs(limit: int = 12) -> list[str]:
    """A few real paragraphs of every language, from the first games' texts."""
    out: list[str] = []
    for entry in games.catalog()[:4]:
        for lang in ("zh", "en", "ru"):
            for key in ("names", "description", "rules"):
                text = entry.get(key, {}).get(lang, "") if isinstance(entry.get(key), dict) \
                    else ""
                out += [p for p in text.split("\n") if p.strip() and len(p) < 200][:limit]
    return out


def _tailored(text: str, units: list[str]) -> list[str]:
    """uniseg's units with the tailorings line_break makes: a number keeps the Chinese
    measure word after it ("52张", "1 局"), a short quoted term stays whole ("“简易”")."""
    return _keep_short_quotes(text, _measure_words_kept(units))


def _measure_words_kept(units: list[str]) -> list[str]:
    out: list[str] = []
    for unit in units:
        if out and out[-1].rstrip()[-1:].isdigit() and \
                "\u3400" <= unit[:1] <= "\u9fff":
            out[-1] += unit
        else:
            out.append(unit)
    return out


def test_break_opportunities_agree_with_the_full_algorithm():
    paragraphs = SAMPLES + _game_paragraphs(3)
    assert len(paragraphs) > 20
    for text in paragraphs:
        text = text.lstrip(" ")
        assert break_units(text) == _tailored(text, list(line_break_units(text))), text
        assert "".join(break_units(text)) == text


def test_chinese_break_rules():
    units = break_units("每堆同花色（从A开始），依次叠到K。")
    assert not any(u[0] in NO_START for u in units[1:]), units
    assert not any(u.rstrip()[-1] in NO_END for u in units if u.strip()), units
    assert "（从" in "".join(units) and any(u.startswith("（从") or "（从" in u for u in units)


def _laid_lines(label) -> list[str]:
    label.texture_update()
    return ["".join(w.text for w in line.words) for line in label._label._cached_lines]


def _check_lines(lines: list[str], where: str) -> None:
    for k, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        assert text[0] not in NO_START or k == 0, (where, k, line)
        assert text[-1] not in NO_END, (where, k, line)
        assert text not in BULLETS, (where, k, "a bullet alone", line)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_chinese_rules_sheets_break_by_the_rules(ui, size):
    ui.reset("zh", size)
    for game_id in ("klondike", "pyramid", "golf", "napoleons_tomb", "grand_piano_fragment"):
        ui.app.open_position(games.new(game_id, 1))
        ui.table.show_rules()
        ui.frames(1)
        _check_lines(_laid_lines(ui.table.rules_body), f"{game_id} rules {size}")
        ui.table.close_sheet()


def test_picker_descriptions_break_by_the_rules(ui):
    from kivy.uix.label import Label

    from kiosk.screens.picker import GameTile

    ui.reset("zh", (800, 480))
    ui.app.show_picker()
    ui.frames(2)
    tiles = [w for w in ui.app.picker.carousel.walk(restrict=True) if isinstance(w, GameTile)]
    assert tiles
    for tile in tiles:
        for lab in tile.children:
            if isinstance(lab, Label) and lab.text:
                _check_lines(_laid_lines(lab), f"{tile.game_id} tile")
