"""App commands: ``kiosk run`` starts the kiosk, ``kiosk snapshot`` renders a deal.

Kivy is imported inside the handlers (after :func:`kiosk.platform.boot.configure`), so ``kiosk
games`` and the other commands stay instant.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from pathlib import Path

from ._argtypes import deal_number, language

ORDER = 20


def parse_size(text: str) -> tuple[int, int]:
    from kiosk.commands.cli import UsageError

    try:
        w, h = (int(v) for v in text.lower().split("x", 1))
    except ValueError:
        raise UsageError(f"--size needs WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if not (100 <= w <= 8192 and 100 <= h <= 8192):
        raise UsageError(f"--size {text}: each side must be 100..8192 pixels")
    return w, h


def _check_game(game_id: str | None, seed: int | None, options: dict) -> None:
    """Fail early, on the command line, for an unknown game, a bad deal number or a bad
    option: inside the app the same mistake would happen where nobody reads it."""
    import games
    from kiosk.commands.cli import UsageError

    if game_id is not None:
        games.new(game_id, 1 if seed is None else seed, **options)
    elif seed is not None or options:
        raise UsageError("--seed and --option need --game")


def load_config(args: argparse.Namespace, create: bool = True):
    """The configuration for ``kiosk run``: the file (``--config``, ``$SOLITAIRE_KIOSK_CONFIG``,
    ``/etc/solitaire-kiosk/config.toml``), then the operator menu's saved settings, then the
    command-line flags. Problems are logged and kept for the operator menu; never fatal. A
    file that does not parse gives way to the copy of the last one that did.

    ``create=False``: nothing is written (no data directory, no copy of the file) until
    :func:`start_data_dir`, once a window is open."""
    from kiosk.settings import config, overrides

    cfg = config.load(getattr(args, "config", None), fallback=True, remember=create)
    data_dir = cfg.data_dir(create)
    notes = overrides.apply(cfg, data_dir)
    if getattr(args, "lang", None):
        cfg.language = args.lang
    if getattr(args, "rotation", None) is not None:
        cfg.rotation = args.rotation
    if getattr(args, "four_colour", None):
        cfg.four_colour = True
    if getattr(args, "no_autoplay", None):
        cfg.autoplay = False
    return cfg, data_dir, notes


class NoWindow(Exception):
    """Kivy could not open a window (no display, no GL); its log has said why."""


def _need_window() -> None:
    """Stop with one line when there is no window: the app would otherwise fail later, in
    its first use of the window, with a traceback that hides the cause Kivy logged.

    Kivy says why in a critical log record that holds every provider's traceback (a
    visitor's screen or an operator's console full of them); that record is held back and
    its causes ("sdl2: bogus not available") go into the line instead."""
    from kivy.logger import Logger

    held: list[str] = []

    def hold(record) -> bool:
        text = str(record.msg)
        if record.levelno >= logging.CRITICAL and "Unable to find any valuable" in text:
            held.append(text)
            return False
        return True

    Logger.addFilter(hold)
    try:
        from kivy.core.window import Window
    finally:
        Logger.removeFilter(hold)
    if Window is None:
        causes = "; ".join(_window_causes("\n".join(held))) or "Kivy has no window provider"
        from kiosk.platform.boot import WHAT_TO_DO

        raise NoWindow(f"no window could be opened ({causes}): {WHAT_TO_DO}")


def _window_causes(text: str) -> list[str]:
    """"provider: reason" for each ``<provider> - <Error>: <reason>`` line of Kivy's
    record (a reason given as bytes by SDL is shown as its text)."""
    out = []
    for m in re.finditer(r"^(\w+) - \w+: (.*)$", text, flags=re.M):
        reason = re.sub(r"^b'(.*)'$", r"\1", m.group(2).strip())
        out.append(f"{m.group(1)}: {reason}")
    return out


def make_app(args: argparse.Namespace, **kw):
    """The app ``kiosk run`` starts (Kivy configured for this machine first); the app logs
    the configuration's problems once it runs."""
    from kiosk.commands.engine import parse_options
    from kiosk.platform import boot

    options = parse_options(args.option)
    _check_game(args.game, args.seed, options)
    cfg, data_dir, notes = load_config(args, create=False)
    screen = boot.decide_screen(parse_size(args.size) if args.size else None, args.portrait,
                                args.fullscreen, rotation=cfg.rotation)
    problem = boot.missing_display()
    if problem:
        raise NoWindow(problem)
    # SDL's window only: when SDL cannot open one, Kivy's fallback (its own X11 window)
    # ends the process itself (status 102, "Couldn't connect to X server")
    os.environ.setdefault("KIVY_WINDOW", "sdl2")
    boot.configure(screen)
    _need_window()
    from kiosk.app import KioskApp
    from kiosk.settings import config, overrides

    data_dir = cfg.data_dir()  # the kiosk starts: now the data directory may be made
    config.remember(cfg)
    overrides.tidy(data_dir)  # a killed write's temporary file, an old 0644 file
    app = KioskApp(cfg=cfg, game=args.game, seed=args.seed, options=options, services=True,
                   data_dir=data_dir, **kw)
    app.notes.extend(notes)
    return app


def cmd_run(args: argparse.Namespace) -> int:
    """Run the kiosk until the operator ends it; the exit status says how (see
    :mod:`kiosk.settings.operator`: 75 restart, 76 maintenance console)."""
    import signal

    from kiosk.platform import systemd_notify

    try:
        app = make_app(args)
    except NoWindow as err:  # the machine, not the kiosk: status 2 as for bad input
        # past Kivy's capture of sys.stderr, which would log the line with a space before it
        print(f"kiosk: {err}", file=sys.__stderr__ or sys.stderr, flush=True)
        return 2

    def stop(_signum, _frame) -> None:  # systemd's SIGTERM: close the play log, then exit
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, stop)
    systemd_notify.attach(app)
    app.run()
    return app.exit_code


def _check_out(out: Path) -> None:
    """Refuse an output path that cannot become the PNG before a window opens: a directory
    "exists" after the capture too, and was taken for the written picture."""
    from kiosk.commands.cli import UsageError

    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; name the PNG file to write")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: there is no directory {out.parent}")


def cmd_snapshot(args: argparse.Namespace) -> int:
    from kiosk.commands.engine import parse_options
    from kiosk.platform import boot

    options = parse_options(args.option)
    _check_game(args.game, args.seed, options)
    w, h = parse_size(args.size)
    _check_out(Path(args.out))
    boot.configure(boot.Screen(w, h, headless=True), quiet=not args.verbose)
    try:
        _need_window()
    except NoWindow as err:
        print(f"kiosk: {err}", file=sys.stderr)
        return 1
    from kivy.clock import Clock

    from kiosk.app import KioskApp
    from kiosk.screens.shots import capture

    out = Path(args.out)
    result = {"ok": False}

    def ready(app: KioskApp) -> None:
        def done(path: Path) -> None:
            result["ok"] = path.is_file()
            app.stop()

        Clock.schedule_once(lambda _dt: capture(out, done), 0.05)

    app = KioskApp(language=args.lang, game=args.game, seed=args.seed,
                   options=options, four_colour=args.four_colour, animate=False,
                   transitions=False, on_ready=ready)
    app.run()
    if not result["ok"]:
        print(f"kiosk: could not write {out}", file=sys.stderr)
        return 1
    print(out)
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="start the touch table (full screen on a Pi)")
    p.add_argument("--size", metavar="WxH", help="window size (default 800x480)")
    p.add_argument("--portrait", action="store_true", help="tall window (e.g. 480x800)")
    full = p.add_mutually_exclusive_group()
    full.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None,
                      help="full screen (default on a Pi or without a desktop)")
    full.add_argument("--windowed", dest="fullscreen", action="store_false",
                      help="a window even on a Pi")
    p.add_argument("--config", metavar="PATH",
                   help="configuration file (default: $SOLITAIRE_KIOSK_CONFIG, else "
                   "/etc/solitaire-kiosk/config.toml); the flags below override it")
    p.add_argument("--rotation", type=int, default=None, choices=(0, 90, 180, 270),
                   help="turn the picture (and touches) for a panel mounted on its side")
    p.add_argument("--lang", default=None, type=language,
                   help="zh, en or ru (default: the configuration's)")
    p.add_argument("--game", help="open straight into this game id")
    p.add_argument("--seed", type=deal_number, help="deal number for --game")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a rule option of --game (repeatable)")
    p.add_argument("--four-colour", action="store_true", default=None,
                   help="four-colour deck")
    p.add_argument("--no-autoplay", action="store_true", default=None,
                   help="do not move safe cards to the foundations by themselves")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("snapshot", help="render a deal's table to a PNG, without a screen")
    p.add_argument("game", help="game id (see `kiosk games`)")
    p.add_argument("--seed", type=deal_number, required=True, help="deal number")
    p.add_argument("--size", default="800x480", metavar="WxH", help="picture size")
    p.add_argument("--lang", default="en", type=language, help="zh, en or ru")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a rule option, e.g. --option draw=3 (repeatable)")
    p.add_argument("--four-colour", action="store_true", help="four-colour deck")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--verbose", action="store_true", help="show Kivy's log")
    p.set_defaults(handler=cmd_snapshot)
