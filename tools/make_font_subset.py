#!/usr/bin/env python3
"""Regenerate the kiosk's font: a subset of Noto Sans CJK SC (SIL OFL 1.1).

Why a subset: the full CJK font is 16-20 MB per weight; a Pi image and the repository want a
few MB. The subset keeps every character the app can show today (all strings of the
translation catalogs in kiosk/locale and every text of games.catalog() in every language)
plus the 3,755 level-1 hanzi of GB2312 and its punctuation rows, so that a new game's Chinese
text is very likely covered already. tests/ui/test_fonts.py fails when a text uses a
character missing here: run this script again then.

Source: Debian's ``fonts-noto-cjk`` package (``apt-get install fonts-noto-cjk``), or give
``--regular`` / ``--bold`` paths to NotoSansCJK .ttc/.otf files from another OFL copy.

    python3 tools/make_font_subset.py            # writes assets/fonts/*.otf
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT_DIR = ROOT / "assets" / "fonts"
DEBIAN_DIR = Path("/usr/share/fonts/opentype/noto")
FACE = "Noto Sans CJK SC"

#: characters beyond the texts: Latin, Cyrillic, card suits and the signs the UI draws
EXTRA = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0xA0, 0x100))
    + "".join(chr(c) for c in range(0x410, 0x450)) + "Ёё"
    + "♣♦♥♠♧♢♡♤★☆✓←→↑↓‹›…—–‘’“”«»„•·№×÷−±°€"
    + "　、。〈〉《》「」『』【】〔〕～！（），．：；？"
)


def gb2312_chars() -> str:
    """GB2312 symbol rows 1-9 and level-1 hanzi (rows 16-55), decoded from the codec."""
    out = []
    for hi in list(range(0xA1, 0xAA)) + list(range(0xB0, 0xD8)):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(out)


def app_texts(bold: bool = False) -> str:
    """Every string the app shows (``bold``: only those drawn in bold: UI texts, names)."""
    from kiosk.i18n import all_catalog_texts, bold_texts

    return "".join(bold_texts() if bold else all_catalog_texts())


def wanted_chars(bold: bool = False) -> set[int]:
    """Regular: everything plus GB2312 level 1. Bold (titles, names, card indices): only
    what is shown in bold today, which keeps it small."""
    text = EXTRA + app_texts(bold) + ("" if bold else gb2312_chars())
    return {ord(ch) for ch in text if ch.isprintable() or ch == "\u3000"}


def load_face(path: Path):
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() == ".ttc":
        for font in TTCollection(str(path)).fonts:
            if font["name"].getDebugName(4) in (FACE, f"{FACE} Bold", f"{FACE} Regular"):
                return font
            if font["name"].getDebugName(1) == FACE:
                return font
        raise SystemExit(f"{path}: no {FACE} face inside")
    return TTFont(str(path))


def subset(src: Path, dst: Path, chars: set[int]) -> int:
    from fontTools import subset as fs

    font = load_face(src)
    cmap = font.getBestCmap()
    opts = fs.Options()
    opts.layout_features = ["kern", "liga", "locl", "vert", "palt"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = False
    sub = fs.Subsetter(opts)
    sub.populate(unicodes=sorted(c for c in chars if c in cmap))
    sub.subset(font)
    dst.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(dst))
    missing = sorted(c for c in chars if c not in cmap)
    if missing:
        print(f"note: {len(missing)} characters are not in {FACE}: "
              + "".join(chr(c) for c in missing[:40]))
    return dst.stat().st_size


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--regular", type=Path, default=DEBIAN_DIR / "NotoSansCJK-Regular.ttc")
    ap.add_argument("--bold", type=Path, default=DEBIAN_DIR / "NotoSansCJK-Bold.ttc")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    args = ap.parse_args()
    for p in (args.regular, args.bold):
        if not p.exists():
            print(f"{p} is missing: apt-get install fonts-noto-cjk (or pass --regular/--bold)",
                  file=sys.stderr)
            return 2
    for src, name, bold in ((args.regular, "KioskSans-Regular.otf", False),
                            (args.bold, "KioskSans-Bold.otf", True)):
        chars = wanted_chars(bold)
        size = subset(src, args.out / name, chars)
        print(f"{name}: {len(chars)} characters, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
