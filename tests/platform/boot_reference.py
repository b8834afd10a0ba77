"""What the booted image must show, drawn by the app itself on this machine.

    python -m tests.platform.boot_reference OUT_DIR CONFIG WxH

Runs the real app headless (SDL offscreen, as ``kiosk snapshot`` does) with the image's
config, and writes the welcome screen, the game picker and the first game's table as PNGs
(the app's own renderer, kiosk/screens/shots.py), the variant sheet between the last two when
the config offers two or more variants of that game, and ``reference.json``: where the boot
test must touch the screen (top-left origin, the way QEMU's tablet counts) to open the
picker, that first game, its default variant and then the stock (the first move, which
writes the play's row). The boot test compares QEMU's screendumps with these pictures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.platform.app_reference import shot as picture
from tests.platform.app_reference import start_app


def main(out: Path, config_file: Path, size: tuple[int, int]) -> None:
    app = start_app(config_file, size, "kiosk-boot-ref-")
    from kivy.base import EventLoop

    def frames(n: int = 5) -> None:
        for _ in range(n):
            EventLoop.idle()

    def shot(name: str) -> None:
        picture(out / name, "boot_reference")

    out.mkdir(parents=True, exist_ok=True)
    frames()
    shot("welcome.png")
    app.show_picker()
    frames()
    shot("picker.png")
    grid = app.picker.carousel.current_slide
    tile = next(w for w in reversed(grid.children) if hasattr(w, "game_id"))
    x, y = tile.to_window(*tile.center)
    h = size[1]
    tile.dispatch("on_release")   # what a touch on the tile does: the variant sheet or the table
    frames()
    variant_touch = None
    if app.sm.current == "variants":   # the config offers two or more of its variants
        shot("variants.png")
        sheet = app.sm.get_screen("variants")
        button = sheet.buttons[sheet.default().key]
        vx, vy = button.to_window(*button.center)
        variant_touch = [round(vx), round(h - vy)]
        button.dispatch("on_release")
        frames()
    assert app.sm.current == "table", app.sm.current
    shot("table.png")
    # A deal nobody touches is not a play (kiosk/records/logsession.py): a tap on the stock
    # is the first move, and it writes the play's row; checked here as the guest will see it
    from kivy.tests.common import UnitTestTouch

    view = app.table.view
    game = view.ctl.game
    if "S" not in game.index:
        raise SystemExit(f"boot_reference: {tile.game_id} has no stock to tap")
    stock = view.geometry().base(game.index["S"])
    sx, sy = view.to_window(stock.x + stock.w / 2, stock.y + stock.h / 2)
    finger = UnitTestTouch(sx, sy)
    finger.touch_down()
    frames(1)
    finger.touch_up()
    frames()
    if not view.ctl.game.history:
        raise SystemExit("boot_reference: a tap on the stock played no move")
    home = app.table.buttons["home"]
    hx, hy = home.to_window(home.center_x, home.center_y)
    (out / "reference.json").write_text(json.dumps({
        "size": list(size), "welcome_touch": [size[0] // 2, h // 2],
        "tile_touch": [round(x), round(h - y)], "variant_touch": variant_touch,
        "move_touch": [round(sx), round(h - sy)], "home_touch": [round(hx), round(h - hy)],
        "game": tile.game_id}))


if __name__ == "__main__":
    w, h = (int(v) for v in sys.argv[3].split("x"))
    main(Path(sys.argv[1]), Path(sys.argv[2]), (w, h))
