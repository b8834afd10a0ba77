"""Where the operator touches to install an update, worked out by the app itself.

    python -m tests.platform.operator_reference OUT_DIR CONFIG WxH

Runs the real app headless with the image's config at the screen's size (as
tests/platform/boot_reference.py does) and writes ``operator.json``: the corner a finger
holds to open the PIN keypad, each key of the keypad, the operator menu's "Software update"
tab, its Install button when the stick holds a newer version (RAUC and the stick stood in
for: the positions are what matter), its Restart now button once an update is installed,
and the menu's Close button. Top-left origin, the way QEMU's tablet counts. And the
pictures the boot test tells these screens apart by: ``pin.png`` (the empty keypad),
``menu.png`` (the menu as the PIN opens it) and ``update.png`` (the Software update page
offering the newer version).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.platform.app_reference import shot as picture
from tests.platform.app_reference import start_app

RUNNING = "0.1.0+20261206.222956"
NEWER = "0.1.0+20261207.080000"


def main(out: Path, config_file: Path, size: tuple[int, int]) -> None:
    app = start_app(config_file, size, "kiosk-operator-ref-")
    from kivy.base import EventLoop

    from kiosk.lobby import CORNER
    from kiosk.screens.operator import update as page_mod
    from kiosk.updates import bundle as bundles
    from kiosk.updates import slots, stick
    from kiosk.updates.status import UpdateStatus

    w, h = size

    def frames(n: int = 5) -> None:
        for _ in range(n):
            EventLoop.idle()

    def at(widget) -> list[int]:
        x, y = widget.to_window(*widget.center)
        return [round(x), round(h - y)]

    def shot(name: str) -> None:
        picture(out / name, "operator_reference")

    out.mkdir(parents=True, exist_ok=True)
    frames()
    unit = min(size) / 480
    corner = [round(CORNER * unit / 3), round(CORNER * unit / 3)]
    app.show_pin("menu")
    frames()
    shot("pin.png")
    keys = {key: at(button) for key, button in app.pin.keys.items()}
    app.show_operator()             # where a right PIN leads
    frames()
    shot("menu.png")
    # the page as it looks with a newer update on the stick, and once it is installed
    offer = stick.Offer(Path("/media/usb/kiosk-update.raucb"), info=bundles.BundleInfo(
        Path("/media/usb/kiosk-update.raucb"), "solitaire-kiosk-rpi-arm64", NEWER, "", 1,
        RUNNING, "newer"))
    page_mod.versions.running_version = lambda *a: RUNNING
    app.show_operator("update")
    menu = app.operator
    page = menu.pages["update"]
    page._refresh = lambda: False
    page._look_if_changed = lambda: None
    page._looking = False
    page.seen = page_mod.Seen(slots.Slots("A", "A", "B", "", {}), "", offer)
    menu.rebuild()
    frames()
    shot("update.png")
    tab = at(menu.tab_buttons["update"])
    install = at(menu.widgets["update_install"])
    page.status = UpdateStatus("installed", version=NEWER, from_version=RUNNING, slot="B",
                               percent=100)
    menu.rebuild()
    frames()
    restart = at(menu.widgets["update_restart"])
    (out / "operator.json").write_text(json.dumps({
        "size": [w, h], "corner": corner, "keys": keys, "update_tab": tab,
        "install": install, "restart": restart, "close": at(menu.close)}))


if __name__ == "__main__":
    w, h = (int(v) for v in sys.argv[3].split("x"))
    main(Path(sys.argv[1]), Path(sys.argv[2]), (w, h))
