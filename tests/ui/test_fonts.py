"""Every character the app can show is in the shipped font, and Chinese really renders."""

from __future__ import annotations

from fontTools.ttLib import TTFont

from kiosk.boot import FONT_BOLD, FONT_REGULAR
from kiosk.i18n import all_catalog_texts, bold_texts

#: characters the code draws itself (cards, stars, arrows)
SYMBOLS = "♣♦♥♠★☆‹›/0123456789AJQKJOKER"


def _missing(path, texts) -> dict[str, str]:
    cmap = TTFont(str(path), lazy=True).getBestCmap()
    out: dict[str, str] = {}
    for text in texts:
        for ch in text:
            if ch.isprintable() and not ch.isspace() and ord(ch) not in cmap:
                out.setdefault(ch, text[:40])
    return out


def test_regular_font_covers_every_text():
    missing = _missing(FONT_REGULAR, [*all_catalog_texts(), SYMBOLS])
    assert not missing, ("run tools/make_font_subset.py; missing: "
                         + ", ".join(f"{c!r} in {t!r}" for c, t in list(missing.items())[:10]))


def test_bold_font_covers_titles_names_and_cards():
    missing = _missing(FONT_BOLD, [*bold_texts(), SYMBOLS])
    assert not missing, ("run tools/make_font_subset.py; missing: "
                         + ", ".join(f"{c!r} in {t!r}" for c, t in list(missing.items())[:10]))


def test_fonts_are_small():
    assert FONT_REGULAR.stat().st_size < 3_000_000
    assert FONT_BOLD.stat().st_size < 1_000_000


def _ink(label) -> bytes:
    label.refresh()
    return bytes(label.texture.pixels)


def test_chinese_renders_as_glyphs_not_boxes(ui, tmp_path):
    """Chinese text drawn with the app's font differs from the missing-glyph box, and the
    welcome screen in Chinese is captured to a picture."""
    from kivy.core.text import Label as CoreLabel

    def pixels(text: str) -> bytes:
        return _ink(CoreLabel(text=text, font_size=40, font_name=str(FONT_REGULAR)))

    hanzi = pixels("纸牌")
    boxes = pixels("\U000e0101\U000e0102")  # not in any font: drawn as .notdef boxes
    assert hanzi != boxes
    assert pixels("纸牌") != pixels("接龙")  # different characters, different shapes
    assert sum(1 for b in hanzi[3::4] if b > 128) > 200  # real ink
    ui.app.set_language("zh")
    ui.frames(3)
    ui.screenshot(tmp_path / "welcome-zh.png")
    assert ui.app.welcome.title.text == "纸牌接龙"
    assert (tmp_path / "welcome-zh.png").stat().st_size > 10_000
