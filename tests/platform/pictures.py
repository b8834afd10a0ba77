"""Just enough of PNG and PPM to compare QEMU's screendumps with the app's own pictures.

The test environment has no imaging library, and needs none: QEMU writes binary PPM (P6),
the app writes 8-bit PNG. Pictures are compared on a coarse grid of cell averages, so the
small differences between two software renderers (anti-aliasing, a font hinted one pixel
off) count for little and a different screen counts for a lot.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Picture:
    width: int
    height: int
    rgb: bytes  # rows top to bottom, 3 bytes a pixel

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = (y * self.width + x) * 3
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]


def read_ppm(path: Path) -> Picture:
    data = path.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    if magic != b"P6" or maxval != 255:
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    pos += 1
    return Picture(width, height, data[pos:pos + width * height * 3])


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path: Path) -> Picture:
    """8-bit RGB or RGBA, not interlaced (what Kivy's export_to_png writes)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA PNGs are read here")
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(idat)
    prev = bytearray(stride)
    out = bytearray()
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], up_left)) & 255
        out += line if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3)
        prev = line
    return Picture(width, height, bytes(out))


def write_png(path: Path, picture: Picture) -> None:
    rows = b"".join(b"\0" + picture.rgb[y * picture.width * 3:(y + 1) * picture.width * 3]
                    for y in range(picture.height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", picture.width, picture.height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def cells(picture: Picture, cols: int = 40, rows: int = 24) -> list[float]:
    """Mean brightness of each channel in a cols x rows grid of cells."""
    out: list[float] = []
    cw, ch = picture.width / cols, picture.height / rows
    for r in range(rows):
        for c in range(cols):
            sums, n = [0, 0, 0], 0
            for y in range(int(r * ch), int((r + 1) * ch), 2):
                for x in range(int(c * cw), int((c + 1) * cw), 2):
                    px = picture.pixel(x, y)
                    sums[0] += px[0]
                    sums[1] += px[1]
                    sums[2] += px[2]
                    n += 1
            out.extend(v / max(n, 1) for v in sums)
    return out


def difference(a: Picture, b: Picture) -> float:
    """Mean absolute difference of the two pictures' cell averages, 0 (same) to 255."""
    if (a.width, a.height) != (b.width, b.height):
        raise ValueError(f"sizes differ: {a.width}x{a.height} and {b.width}x{b.height}")
    ca, cb = cells(a), cells(b)
    return sum(abs(x - y) for x, y in zip(ca, cb, strict=True)) / len(ca)
