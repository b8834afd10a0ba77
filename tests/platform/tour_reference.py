"""The touches of the 512 MB boot test's tour, worked out by the app itself on this machine.

    python -m tests.platform.tour_reference OUT_DIR CONFIG WxH GAME [GAME ...]

Runs the real app headless with the image's config (as tests/platform/boot_reference.py
does) and plays the tour a visitor would: from the welcome screen into the picker, the
picker's arrows to the page of each game, its tile (and its default variant when the config
offers several), on a solitaire table the Hint button, the stock three times and the Hint
button again, on a hand table a look, then Home. Every touch is made here exactly as the guest will get it, and written to
``tour.json`` as a step: where to touch (top-left origin, the way QEMU's tablet counts),
what it is, and the screen it leads to, drawn as ``step-NN.png`` where the screen changes
(the guest compares its screendump with it). The guest's deals differ from these (random
deals of the winnable lists), so a table is compared loosely, as the boot test does.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path

from tests.platform.app_reference import shot as picture
from tests.platform.app_reference import start_app

STOCK_TAPS = 3


def main(out: Path, config_file: Path, size: tuple[int, int], tour: list[str]) -> None:
    app = start_app(config_file, size, "kiosk-tour-ref-")
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    w, h = size
    steps: list[dict] = []

    def settle(seconds: float = 1.0) -> None:
        """Frames for this long: the carousel's page turn is an animation on the clock."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            EventLoop.idle()

    def shot(name: str) -> None:
        picture(out / name, "tour_reference")

    def tap(x: float, y: float) -> None:
        """A finger down and up at window (x, y), then a second of frames."""
        finger = UnitTestTouch(x, y)
        finger.touch_down()
        EventLoop.idle()
        finger.touch_up()
        settle()

    def touch(widget, what: str, picture: bool = True, until=None) -> None:
        """``until``: what must hold before the screen is drawn (a page turn is an
        animation: on a loaded machine a second of frames may not see it end)."""
        x, y = widget.to_window(*widget.center)
        tap(x, y)
        deadline = time.monotonic() + 60
        while until is not None and not until():
            if time.monotonic() > deadline:
                raise SystemExit(f"tour_reference: {what} did not end in 60 s")
            settle(0.2)
        step = {"touch": [round(x), round(h - y)], "what": what, "screen": app.sm.current}
        if picture:
            step["picture"] = f"step-{len(steps):02d}.png"
            shot(step["picture"])
        steps.append(step)

    def close_a_sheet(screen, game_id: str) -> dict:
        """A Hint on a deal the solver proves lost opens "No way to win from here", and
        nothing under that sheet takes a touch, Home included. The guest's deal is not this
        one, so neither side knows whether it is open: both touch where its Close button is
        (or would be). Without the sheet the touch falls on the table, which is left next.
        The guest's answer can also come late (its hint worker under emulation on a loaded
        machine), after this touch: so the sheet is drawn here as well, and the guest, whose
        Home then stays on the sheet, touches Close and Home again (test_boot_512m.py).
        Returns what the guest needs for that: the sheet's picture and Close's place."""
        opened = screen.sheet is None
        if opened:   # draw it to learn where Close is, as the guest would see it
            screen.help.no_win(count=False)
            settle(0.3)
        close = next(b for b in screen.sheet.walk(restrict=True)
                     if getattr(b, "text", None) == app.tr("Close"))
        x, y = close.to_window(*close.center)
        sheet = {"picture": f"sheet-{len(steps):02d}.png", "close": [round(x), round(h - y)]}
        shot(sheet["picture"])
        if opened:
            screen.close_sheet()
            settle(0.3)
        tap(x, y)
        steps.append({"touch": [round(x), round(h - y)], "what":
                      f"Close of a sheet on {game_id}, if one is open", "screen": app.sm.current})
        return sheet

    out.mkdir(parents=True, exist_ok=True)
    settle()
    welcome = app.sm.get_screen("welcome")
    for game_id in tour:
        if app.sm.current == "welcome":
            touch(welcome, "the welcome screen")
        picker = app.picker
        # the picker groups its pages (solitaires, then the games against the computer), so
        # a game's page is where its tile is, not its place in the catalog
        page = next((n for n, grid in enumerate(picker.carousel.slides)
                     if any(getattr(t, "game_id", None) == game_id for t in grid.children)),
                    None)
        if page is None:
            raise SystemExit(f"tour_reference: {game_id} is not in the picker")
        while (picker.carousel.index or 0) != page:
            now = picker.carousel.index or 0
            forward = now < page
            turned = now + (1 if forward else -1)
            touch(picker.next if forward else picker.prev,
                  "the picker's next page" if forward else "the picker's previous page",
                  until=lambda c=picker.carousel, i=turned: c.index == i and c._offset == 0)
        grid = picker.carousel.slides[page]
        tile = next(t for t in grid.children if getattr(t, "game_id", None) == game_id)
        touch(tile, f"the {game_id} tile")
        if app.sm.current == "variants":
            sheet = app.sm.get_screen("variants")
            touch(sheet.buttons[sheet.default().key], f"the default variant of {game_id}")
        screen = app.sm.get_screen(app.sm.current)
        if app.sm.current == "table":
            # a deal of a winnable list is hinted from its stored line, without the worker;
            # three taps on the stock most likely leave that line, and the live check and
            # the second Hint then ask the worker
            touch(screen.buttons["hint"], f"Hint at {game_id}", picture=False)
            game = screen.view.ctl.game
            if "S" in game.index:
                for n in range(STOCK_TAPS):
                    stock = screen.view.geometry().base(game.index["S"])
                    sx, sy = screen.view.to_window(stock.x + stock.w / 2,
                                                   stock.y + stock.h / 2)
                    tap(sx, sy)
                    steps.append({"touch": [round(sx), round(h - sy)], "what":
                                  f"the stock of {game_id} ({n + 1})", "screen": app.sm.current})
            touch(screen.buttons["hint"], f"Hint at {game_id} again", picture=False)
            sheet = close_a_sheet(screen, game_id)
            touch(screen.buttons["home"], f"Home from {game_id}")
            steps[-1]["sheet"] = sheet
        else:
            touch(screen.home, f"Home from {game_id}")
            if app.sm.current != "picker":   # Draw Poker asks first: "Leave the table"
                leave = next((b for b in screen.walk(restrict=True)
                              if getattr(b, "text", None) == app.tr("Leave the table")), None)
                if leave is not None:
                    touch(leave, f"Leave the table of {game_id}")
        if app.sm.current != "picker":
            shot("error.png")
            raise SystemExit(f"tour_reference: Home from {game_id} led to {app.sm.current}")
    (out / "tour.json").write_text(json.dumps({"size": list(size), "steps": steps}, indent=1))


if __name__ == "__main__":
    width, height = (int(v) for v in sys.argv[3].split("x"))
    try:
        main(Path(sys.argv[1]), Path(sys.argv[2]), (width, height), sys.argv[4:])
    except BaseException:   # the headless app keeps stderr quiet: the boot test shows this
        Path(sys.argv[1], "error.txt").write_text(traceback.format_exc())
        raise
