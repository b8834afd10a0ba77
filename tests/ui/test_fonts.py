"""Every character the app can show is in the shipped font, and Chinese really renders."""

from __future__ import annotations

import struct
from pathlib import Path

from kiosk.i18n import all_catalog_texts, bold_texts
from kiosk.platform.boot import FONT_BOLD, FONT_REGULAR

#: characters the code draws itself (cards, stars, arrows)
SYMBOLS = "♣♦♥♠★☆‹›/0123456789AJQKJOKER"


def read_cmap(path: Path) -> set[int]:
    """Code points of an OpenType font's cmap (formats 4 and 12), without fontTools, which
    the test environment does not install."""
    data = path.read_bytes()
    (num_tables,) = struct.unpack(">H", data[4:6])
    offset = None
    for k in range(num_tables):
        tag, _sum, off, _len = struct.unpack(">4sIII", data[12 + 16 * k: 28 + 16 * k])
        if tag == b"cmap":
            offset = off
    assert offset is not None, f"{path} has no cmap"
    (count,) = struct.unpack(">H", data[offset + 2: offset + 4])
    points: set[int] = set()
    for k in range(count):
        _pid, _eid, sub = struct.unpack(">HHI", data[offset + 4 + 8 * k: offset + 12 + 8 * k])
        base = offset + sub
        (fmt,) = struct.unpack(">H", data[base: base + 2])
        if fmt == 4:
            (segx2,) = struct.unpack(">H", data[base + 6: base + 8])
            ends = struct.unpack(f">{segx2 // 2}H", data[base + 14: base + 14 + segx2])
            starts_at = base + 16 + segx2
            starts = struct.unpack(f">{segx2 // 2}H", data[starts_at: starts_at + segx2])
            deltas = struct.unpack(f">{segx2 // 2}h", data[starts_at + segx2:
                                                         starts_at + 2 * segx2])
            ro_at = starts_at + 2 * segx2
            ranges = struct.unpack(f">{segx2 // 2}H", data[ro_at: ro_at + segx2])
            for i, (a, b) in enumerate(zip(starts, ends, strict=True)):
                for c in range(a, b + 1):
                    if c == 0xFFFF:
                        continue
                    if ranges[i] == 0:
                        glyph = (c + deltas[i]) & 0xFFFF
                    else:
                        at = ro_at + 2 * i + ranges[i] + 2 * (c - a)
                        (glyph,) = struct.unpack(">H", data[at: at + 2])
                        glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(c)
        elif fmt == 12:
            (groups,) = struct.unpack(">I", data[base + 12: base + 16])
            for g in range(groups):
                a, b, _gid = struct.unpack(">III", data[base + 16 + 12 * g: base + 28 + 12 * g])
                points.update(range(a, b + 1))
    return points


def _missing(path, texts) -> dict[str, str]:
    cmap = read_cmap(Path(path))
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
    assert ui.app.welcome.title.text == "纸牌游戏"
    assert (tmp_path / "welcome-zh.png").stat().st_size > 10_000
