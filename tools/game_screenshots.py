#!/usr/bin/env python3
"""Every game's dealt table at 800x480 and 720x1280 in zh, en and ru, into
docs/screenshots/games/<game>-<size>-<lang>.png: the evidence that each declared layout fits
a kiosk screen and reads well in every language.

One headless app (SDL offscreen) for all the pictures, the window resized and the language
switched in-process: a process per picture (``kiosk snapshot``) took an hour of a shared
machine for the 264 of them.

    python3 tools/game_screenshots.py [--seed 5] [--out docs/screenshots/games]
                                      [--sizes 800x480,720x1280] [--langs zh,en,ru]
                                      [--only klondike,golf]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk.platform import boot  # noqa: E402
from tools.shot_app import frames, shot, start_app, temporary_home  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "games")
    ap.add_argument("--sizes", default="800x480,720x1280")
    ap.add_argument("--langs", default="zh,en,ru")
    ap.add_argument("--only", default="", help="comma-separated game ids")
    args = ap.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    langs = [lang for lang in args.langs.split(",") if lang]
    boot.configure(boot.Screen(*sizes[0], headless=True), quiet=True)

    from kivy.core.window import Window

    import games
    from kiosk.settings.config import table_can_play

    only = [g for g in args.only.split(",") if g]
    ids = [g for g in games.ids() if table_can_play(g) and (not only or g in only)]
    app = start_app(temporary_home("kiosk-game-shots-"), services=False)

    args.out.mkdir(parents=True, exist_ok=True)
    count = 0
    for w, h in sizes:
        Window.size = (w, h)
        frames(4)
        for lang in langs:
            app.set_language(lang)
            for game_id in ids:
                app.open_game(game_id, args.seed)
                frames()
                shot(args.out / f"{game_id}-{w}x{h}-{lang}.png", say=False)
                count += 1
    app.stop()
    print(f"wrote {count} pictures to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
