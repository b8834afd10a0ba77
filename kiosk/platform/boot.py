"""Everything that must happen before Kivy is imported: environment, window, input, lock-down.

Kivy reads its environment and configuration at import time, so ``kiosk run``,
``kiosk snapshot``, the tests and the benchmark call :func:`configure` first and import Kivy
only afterwards. Configuration comes from code and ``KCFG_`` variables, never from a
``~/.kivy/config.ini`` the visitor's machine might have (``KIVY_NO_CONFIG``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kiosk.paths import ASSETS

#: the turns Kivy's window takes (``[graphics] rotation``)
ROTATIONS = (0, 90, 180, 270)
FONT_REGULAR = ASSETS / "fonts" / "KioskSans-Regular.otf"
FONT_BOLD = ASSETS / "fonts" / "KioskSans-Bold.otf"


def is_pi(model_file: str = "/proc/device-tree/model") -> bool:
    """True on a Raspberry Pi (its device tree names the board)."""
    try:
        return "raspberry pi" in Path(model_file).read_text(errors="replace").lower()
    except OSError:
        return False


def has_display(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def has_drm(dri: str = "/dev/dri") -> bool:
    """True where the kernel drives a screen itself (a ``/dev/dri/card*`` device), so SDL's
    kmsdrm driver can draw without a desktop: the Pi, and any board or virtual machine
    booted straight to the console."""
    try:
        return any(Path(dri).glob("card*"))
    except OSError:
        return False


def missing_display(env: Mapping[str, str] | None = None, dri: str = "/dev/dri") -> str | None:
    """Why no visible window can open here, or None when one can.

    With no desktop session and no screen device, SDL quietly falls back to its offscreen
    driver: the kiosk would then run, unseen, until someone kills it. An explicit
    ``SDL_VIDEODRIVER`` (the systemd unit, the tests) is trusted as it is."""
    env = os.environ if env is None else env
    driver = env.get("SDL_VIDEODRIVER", "")
    if driver == "x11" and not env.get("DISPLAY"):  # X11 has no default display to try
        return ("no display found (SDL_VIDEODRIVER is x11 but DISPLAY is not set): " +
                WHAT_TO_DO)
    if has_display(env) or driver or has_drm(dri):
        return None
    return ("no display found (DISPLAY and WAYLAND_DISPLAY are not set and there is no "
            "screen device in /dev/dri): " + WHAT_TO_DO)


#: the second half of the one line ``kiosk run`` prints when it cannot show a window
WHAT_TO_DO = "start it from a desktop session, or use `kiosk snapshot` to get a picture"


def input_providers(touchscreen: bool) -> dict[str, str]:
    """The ``[input]`` section: exactly one path for a touch, so a tap is one tap.

    On the Pi the kernel's touch device (hidinput via probesysfs) is the path and the
    ``mouse`` provider goes: SDL also turns each touch into a synthetic mouse click, and
    keeping both delivers every tap twice (kivy issues 8494, 7169). On a desktop the mouse
    is the path and device probing goes.
    """
    if touchscreen:
        return {"hid_%(name)s": "probesysfs,provider=hidinput"}
    return {"mouse": "mouse,multitouch_on_demand"}


@dataclass
class Screen:
    width: int = 800
    height: int = 480
    fullscreen: bool = False
    touchscreen: bool = False
    headless: bool = False
    rotation: int = 0


def decide_screen(size: tuple[int, int] | None = None, portrait: bool = False,
                  fullscreen: bool | None = None, headless: bool = False,
                  rotation: int = 0) -> Screen:
    """Window size, full screen and input path for this machine and these arguments."""
    pi = is_pi()
    no_display = not has_display()
    w, h = size or (800, 480)
    if portrait and w > h:
        w, h = h, w
    full = (pi or no_display) if fullscreen is None else fullscreen
    if headless:
        full = False
    return Screen(w, h, full, touchscreen=pi and not headless, headless=headless,
                  rotation=rotation)


def configure(screen: Screen, quiet: bool = False) -> None:
    """Set Kivy's environment and configuration. Call before any ``import kivy``."""
    env = os.environ
    env.setdefault("KIVY_NO_ARGS", "1")           # our argparse owns sys.argv
    env.setdefault("KIVY_NO_CONFIG", "1")         # no user config.ini, read-only root is fine
    env.setdefault("KIVY_NO_FILELOG", "1")        # the journal keeps our log
    env.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")  # SIGTERM from systemd ends us normally
    env["KCFG_KIVY_EXIT_ON_ESCAPE"] = "0"
    if quiet:
        env.setdefault("KIVY_NO_CONSOLELOG", "1")
    if screen.headless:
        env["SDL_VIDEODRIVER"] = "offscreen"
    elif not has_display() and (is_pi() or has_drm()):
        env.setdefault("SDL_VIDEODRIVER", "kmsdrm")
        env.setdefault("KIVY_WINDOW", "sdl2")
        env.setdefault("KIVY_GL_BACKEND", "sdl2")

    from kivy.config import Config

    for (section, key), value in kivy_settings(screen).items():
        Config.set(section, key, value)
    for key, _value in Config.items("input"):
        Config.remove_option("input", key)
    if not screen.headless:
        for key, value in input_providers(screen.touchscreen).items():
            Config.set("input", key, value)


def kivy_settings(screen: Screen) -> dict[tuple[str, str], str]:
    """The ``(section, key): text`` settings Kivy's window is made from, kept apart from
    :func:`configure` so each one can be checked without a window: Kivy parses them with
    ``int()`` and its boolean words only when the window opens, and a text it cannot parse
    (``rotation = "90.0"``) leaves the kiosk without a window. So every value is written
    from a whole number, and one that Kivy would refuse raises ValueError here, at once."""
    if type(screen.rotation) is not int or screen.rotation not in ROTATIONS:
        raise ValueError(f"rotation {screen.rotation!r} is not one of 0, 90, 180, 270")
    for side in (screen.width, screen.height):
        if type(side) is not int or side < 1:
            raise ValueError(f"window size {screen.width!r}x{screen.height!r} is not in pixels")
    return {
        ("kivy", "exit_on_escape"): "0",
        ("kivy", "pause_on_minimize"): "0",
        ("graphics", "width"): str(screen.width),
        ("graphics", "height"): str(screen.height),
        ("graphics", "fullscreen"): "auto" if screen.fullscreen else "0",
        ("graphics", "resizable"): "0" if screen.fullscreen else "1",
        ("graphics", "show_cursor"): "0" if screen.touchscreen else "1",
        # a panel mounted the other way round: Kivy turns the picture and the touches together
        ("graphics", "rotation"): str(screen.rotation),
        # cards are pre-drawn textures; multisampling would only cost fill rate (3x in llvmpipe)
        ("graphics", "multisamples"): "0",
    }
