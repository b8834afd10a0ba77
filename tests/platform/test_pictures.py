"""The picture helpers the boot test compares screens with (tests/platform/pictures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .pictures import Picture, difference, read_png, read_ppm, write_png


def _stripes(width: int, height: int, shift: int = 0) -> Picture:
    rgb = bytearray()
    for y in range(height):
        for x in range(width):
            rgb += bytes(((x + shift) * 7 % 256, y * 5 % 256, 128 if (x // 8) % 2 else 30))
    return Picture(width, height, bytes(rgb))


def test_png_round_trip(tmp_path: Path):
    pic = _stripes(64, 40)
    write_png(tmp_path / "a.png", pic)
    back = read_png(tmp_path / "a.png")
    assert (back.width, back.height, back.rgb) == (64, 40, pic.rgb)


def test_ppm_is_read_as_qemu_writes_it(tmp_path: Path):
    pic = _stripes(10, 6)
    (tmp_path / "a.ppm").write_bytes(b"P6\n10 6\n255\n" + pic.rgb)
    assert read_ppm(tmp_path / "a.ppm").rgb == pic.rgb


def test_difference_tells_the_same_screen_from_another():
    a, b = _stripes(80, 48), _stripes(80, 48, shift=1)
    black = Picture(80, 48, bytes(80 * 48 * 3))
    assert difference(a, a) == 0
    assert difference(a, b) < 5 < difference(a, black)
    with pytest.raises(ValueError, match="sizes differ"):
        difference(a, _stripes(40, 48))
