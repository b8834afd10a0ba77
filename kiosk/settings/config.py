"""The kiosk's configuration: one TOML file, every key optional.

Where the file is, first match wins: ``--config PATH`` on the command line, the environment
variable ``SOLITAIRE_KIOSK_CONFIG``, then ``/etc/solitaire-kiosk/config.toml``. A missing
default file is normal (all defaults, no problem); a missing file that was asked for is a
problem.

A kiosk must start whatever an operator wrote, so loading never fails: every bad value gives
ONE message naming the key and the file, and that key keeps its default (a file that is not
valid TOML gives one message and all defaults). The messages are kept in
:attr:`Config.problems`; ``kiosk config check`` prints them.

A file that cannot be read as TOML must not cost the kiosk its settings, least of all the
operator PIN: ``kiosk run`` loads with ``remember=True``, which keeps a byte-for-byte copy
of every file that parses (:data:`LAST_GOOD_NAME` in the data directory, mode 0600), and
``fallback=True``, which loads that copy when the file does not parse (or, without one, the
defaults, which have no PIN anyone knows; ``config check`` and ``config show`` report the
same). :attr:`Config.broken_file` then names the file, for the welcome
screen's operator mark. A UTF-8 byte-order mark (Windows Notepad writes one) is not an
error. ``operator_pin`` is hashed as soon as it is read (:mod:`kiosk.settings.operator_pin`), so
no configuration object ever holds the digits.

>>> cfg = load_text('name = "Library"\\n[buttons]\\nundo_pin = 99\\n', "x.toml")
>>> cfg.name, cfg.buttons.undo_pin
('Library', 27)
>>> cfg.problems
['x.toml: buttons.undo_pin: 99 is not a GPIO pin (BCM 2 to 27); using 27']

``config.example.toml`` at the top of the repository documents every key.
"""

from __future__ import annotations

import json
import logging
import os
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from games.engine.reason import Reason
from kiosk.platform import readfile
from kiosk.settings import variants
from kiosk.settings.problem import Problem, value_of
from kiosk.settings.tables import HAND_TABLES, table_can_play  # noqa: F401 (re-exported)
from kiosk.settings.variants import DEFAULT_KEY, OFFER_KEY

log = logging.getLogger("kiosk.config")

DEFAULT_PATH = Path("/etc/solitaire-kiosk/config.toml")
ENV_VAR = "SOLITAIRE_KIOSK_CONFIG"
DEFAULT_DATA_DIR = Path("/var/lib/solitaire-kiosk")
#: the copy of the last configuration file that parsed, in the data directory
LAST_GOOD_NAME = "config.last-good.toml"
LANGUAGES = ("en", "zh", "ru")
ROTATIONS = (0, 90, 180, 270)
#: BCM numbers a button may use: 0 and 1 are the HAT ID EEPROM pins, 28+ are not on the header
PIN_RANGE = (2, 27)
#: no configuration is near this size; a bigger file is a mistake, not a configuration
MAX_CONFIG_BYTES = 1024 * 1024
#: the key inside ``[games.<id>]`` that is ours, not one of the game's rule options
WINNABLE_KEY = "winnable_only"

#: a sensible picker order: the best-known games first, the rest alphabetically
PREFERRED_ORDER = (
    "klondike", "pyramid", "golf", "canfield", "scorpion", "eight_off", "la_belle_lucie",
    "beleaguered_castle", "aces_up", "clock", "accordion", "monte_carlo", "streets_and_alleys",
    "bisley", "king_albert", "the_fan",
)


@dataclass
class Buttons:
    """The two hardware buttons (BCM numbers, wired to ground, internal pull-ups)."""

    new_deal_pin: int = 17
    undo_pin: int = 27
    #: the GPIO chip of the pins, by its label: "auto" is the Pi's 40-pin header
    #: (kiosk.platform.gpiochip); the pins are that chip's line numbers
    chip: str = "auto"
    #: "up": each button between its pin and ground (pressed reads low); "down": to 3.3 V
    pull: str = "up"
    #: holding New deal this long goes back to the game picker (and does not deal)
    new_deal_hold: float = 3.0
    #: holding Undo repeats it: first repeat after this delay ...
    undo_repeat_delay: float = 0.8
    #: ... then one undo every this many seconds
    undo_repeat_interval: float = 0.4
    #: edges closer than this to the last accepted one are contact bounce
    debounce_ms: int = 50


@dataclass
class Attract:
    enabled: bool = True
    #: seconds without input, on the welcome screen, before the demo starts
    delay: float = 300.0


@dataclass
class Table:
    """The table's solver help (docs/ui.md, "Hints and the live verdict")."""

    #: show the Hint button
    hints: bool = True
    #: seconds the solver may search for a hint; a Raspberry Pi 4 answers within about
    #: this plus 0.3 s, and most positions are decided much sooner
    hint_seconds: float = 1.5
    #: check in the background, after each move, whether the game can still be won
    winnable_check: bool = True
    #: seconds of that check's search (it never blocks the table)
    check_seconds: float = 3.0
    #: seconds the player must pause before the check starts
    check_delay: float = 1.0


@dataclass
class Log:
    #: (read when the object is made, so that tests can point :data:`DEFAULT_DATA_DIR` away)
    data_dir: Path = field(default_factory=lambda: DEFAULT_DATA_DIR)
    #: plays older than this are pruned (0 = keep forever, size limit still applies)
    max_days: int = 730
    #: the log file is kept under this size, oldest plays pruned first (0 = no limit)
    max_mb: float = 200.0
    #: the log stops writing (and keeps plays in memory) when the card has less free space
    min_free_mb: float = 50.0


@dataclass
class Export:
    #: where the image mounts a USB stick; when nothing is mounted there, the first mounted
    #: removable drive is used
    usb_mount: Path = Path("/media/usb")


#: ``sslmode`` values libpq knows; ``verify-full`` is the default (docs/fleet.md)
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
#: what ``config show`` prints instead of a password
HIDDEN = "(set; not shown)"


@dataclass
class Fleet:
    """The central database this kiosk sends its play log to (``kiosk sync``,
    :mod:`kiosk.fleet`). Absent from the file: no sync, no connection at all."""

    #: host name, or an absolute directory for a Unix socket
    server: str = ""
    port: int = 5432
    database: str = "solitaire_fleet"
    #: the kiosk's own role (``kiosk fleet add-kiosk`` prints it)
    user: str = ""
    #: better kept out of this file: the default password_file is root-only
    password: str | None = None
    #: default: ``fleet.secret`` in the data directory (mode 0600, root's)
    password_file: Path | None = None
    sslmode: str = "verify-full"
    #: the operator's CA certificate, which signed the server's certificate
    sslrootcert: Path | None = None
    #: a client certificate and its key, instead of (or besides) the password
    sslcert: Path | None = None
    sslkey: Path | None = None
    #: plays per transaction: each batch is committed before the cursor moves
    batch_plays: int = 500
    connect_timeout: int = 15
    #: the port Prometheus' node exporter listens on; None (absent): it does not run
    node_exporter_port: int | None = None
    #: where each pass writes its figures for the node exporter's textfile collector;
    #: None: the sync unit's runtime directory (/run/solitaire-kiosk-metrics on the
    #: image), else ``metrics`` in the data directory (kiosk/fleet/metrics.py)
    metrics_dir: Path | None = None
    #: the kiosk and the server share a network no one else reaches: only then may
    #: ``sslmode`` be weaker than verify-full (docs/fleet.md, "TLS")
    closed_network: bool = False


@dataclass
class Updates:
    """Updates of the system from the centre (docs/updates.md, "From the centre"): when the
    kiosk restarts into one, and how its sync pass downloads it."""

    #: restart into an update from the centre only in this daily window, "HH:MM-HH:MM" in
    #: ``time_zone`` (and still only when nobody is playing); None: at any quiet moment
    window: str | None = None
    #: the window's time zone (an IANA name such as "Europe/Berlin"); None: the kiosk's own
    #: (UTC on the image)
    time_zone: str | None = None
    #: minutes of downloading per sync pass, after the play log was sent
    download_minutes: float = 4.0
    #: what a download must leave free on the data partition for the play log
    keep_free_mb: float = 300.0
    #: a CA certificate for an office's HTTPS server that public CAs do not vouch for;
    #: None: the system's certificates
    ca_file: Path | None = None


#: what an ``sslmode`` below verify-full leaves open, for ``config check``'s line
WEAK_TLS = {
    "disable": Reason("sends the password in clear text"),
    "allow": Reason("sends the password in clear text to a server that asks for it"),
    "prefer": Reason("sends the password to any server that answers, an impostor too"),
    "require": Reason("encrypts but trusts any server, an impostor too"),
    "verify-ca": Reason("trusts any server with a certificate of the CA, whatever its name"),
}


@dataclass
class Config:
    name: str = "Solitaire kiosk"
    language: str = "en"
    #: seconds without input during a game before the kiosk goes back to the welcome screen
    idle_timeout: float = 180.0
    #: the PIN's hash (:func:`kiosk.settings.operator_pin.hash_pin`); None: not in the configuration,
    #: the kiosk's own PIN in the data directory is used (:mod:`kiosk.settings.operator_pin`)
    operator_pin: str | None = None
    rotation: int = 0
    four_colour: bool = False
    autoplay: bool = True
    #: enabled games, in picker order
    games: list[str] = field(default_factory=list)
    #: rule options per game id (only games that set some)
    game_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: game ids set to deal only deals known to be winnable (``winnable_only = true``)
    winnable_only: set[str] = field(default_factory=set)
    #: game ids set to deal any deal (``winnable_only = false``); a game in neither set
    #: follows its deal list (see :meth:`winnable`)
    winnable_off: set[str] = field(default_factory=set)
    #: the named variants the variant sheet offers, per game (``offer_variants``; a game
    #: not here offers all of its variants: :mod:`kiosk.settings.variants`)
    variant_offer: dict[str, list[str]] = field(default_factory=dict)
    #: the variant dealt without a choice, per game (``default_variant``)
    variant_default: dict[str, str] = field(default_factory=dict)
    attract: Attract = field(default_factory=Attract)
    table: Table = field(default_factory=Table)
    buttons: Buttons = field(default_factory=Buttons)
    log: Log = field(default_factory=Log)
    export: Export = field(default_factory=Export)
    #: the ``[fleet]`` section; None: this kiosk is not part of a fleet
    fleet: Fleet | None = None
    updates: Updates = field(default_factory=Updates)
    #: the file this came from (None: built-in defaults only)
    path: Path | None = None
    #: one sentence per problem, each naming the file and the key (a :class:`Problem`: the
    #: English line, and the same as a value the operator menu translates)
    problems: list[str] = field(default_factory=list)
    #: the configuration file that could not be read as TOML (None: it was fine or absent);
    #: the settings then came from the last good copy (``path``) or the defaults
    broken_file: Path | None = None

    def options_for(self, game_id: str) -> dict[str, Any]:
        return dict(self.game_options.get(game_id, {}))

    def winnable(self, game_id: str, options: dict[str, Any] | None = None) -> tuple[bool, str]:
        """Whether ``game_id`` deals only winnable deals, and where that comes from (for
        ``kiosk config show`` and the operator menu). The operator's ``winnable_only`` wins;
        otherwise it is on where most deals are lost, as measured by the solver tally kept in
        the game's deal list (:func:`kiosk.solving.deals.default_winnable`). ``options``: the rule
        options dealt with (default: the configured ones)."""
        from kiosk.solving import deals

        key = f"games.{game_id}.{WINNABLE_KEY}"
        if game_id in self.winnable_only:
            return True, f"set: {key} = true"
        if game_id in self.winnable_off:
            return False, f"set: {key} = false"
        return deals.default_winnable(game_id, self.options_for(game_id) if options is None
                                      else options)

    def data_dir(self, create: bool = True) -> Path:
        """The writable data directory (see :func:`resolve_data_dir`); ``create=False``:
        the one it would be, nothing created."""
        path, note = resolve_data_dir(self.log.data_dir, create)
        if note and create:
            log.warning("%s", note)
        return path

    def db_path(self) -> Path:
        """The log file the kiosk writes (creates the data directory if needed)."""
        return self.data_dir() / "plays.db"

    def existing_db_path(self) -> Path:
        """The log file for readers (export, stats): never creates anything."""
        for d in (self.log.data_dir, user_data_dir()):
            if (d / "plays.db").is_file():
                return d / "plays.db"
        return self.log.data_dir / "plays.db"

    def to_dict(self) -> dict[str, Any]:
        """The effective configuration in the file's own shape (what ``config show`` prints)."""
        d = asdict(self)
        out: dict[str, Any] = {k: d[k] for k in (
            "name", "language", "idle_timeout", "operator_pin", "rotation", "four_colour",
            "autoplay") if d[k] is not None}
        out["attract"] = d["attract"]
        out["table"] = d["table"]
        out["buttons"] = d["buttons"]
        out["log"] = {**d["log"], "data_dir": str(self.log.data_dir)}
        out["export"] = {"usb_mount": str(self.export.usb_mount)}
        if self.fleet is not None:
            f = {k: (str(v) if isinstance(v, Path) else v) for k, v in d["fleet"].items()
                 if v is not None}
            if "password" in f:
                f["password"] = HIDDEN  # never printed, not even to root
            out["fleet"] = f
        out["updates"] = {k: (str(v) if isinstance(v, Path) else v)
                          for k, v in d["updates"].items() if v is not None}
        gtab: dict[str, Any] = {"enabled": list(self.games)}
        for gid in sorted(set(self.game_options) | self.winnable_only | self.winnable_off
                          | set(self.variant_offer) | set(self.variant_default)):
            t = dict(self.game_options.get(gid, {}))
            if gid in self.winnable_only:
                t[WINNABLE_KEY] = True
            elif gid in self.winnable_off:
                t[WINNABLE_KEY] = False
            if gid in self.variant_offer:
                t[OFFER_KEY] = list(self.variant_offer[gid])
            if gid in self.variant_default:
                t[DEFAULT_KEY] = self.variant_default[gid]
            gtab[gid] = t
        out["games"] = gtab
        return out


def default_games() -> list[str]:
    """Every game the touch table can play: the well-known ones first, the others
    alphabetically."""
    import games

    known = [g for g in games.ids() if table_can_play(g)]
    first = [g for g in PREFERRED_ORDER if g in known]
    return first + [g for g in known if g not in first]




def user_data_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "solitaire-kiosk"


#: the kernel's views (/proc, /sys, /dev ...): writable in places for root, but no place for
#: a play log, which root's permission checks alone would not notice
PSEUDO_FILESYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "securityfs",
    "pstore", "bpf", "tracefs", "configfs", "fusectl", "mqueue", "hugetlbfs", "binfmt_misc",
    "autofs", "efivarfs", "rpc_pipefs", "nsfs", "selinuxfs"})


def filesystem_of(path: Path, mounts_file: str = "/proc/mounts") -> str | None:
    """The type of the file system ``path`` is on (from the mount table), None if unknown."""
    try:
        lines = Path(mounts_file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    target = os.path.realpath(path)
    best, kind = "", None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fields[2]
    return kind


def data_dir_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the data directory (play log, PIN, saved settings), or None.

    Nothing is created: the nearest existing directory says whether it could be."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    kind = filesystem_of(existing)
    if kind in PSEUDO_FILESYSTEMS:
        return f"data directory {path} is on {kind}, not a file system that keeps files"
    if existing == path and not path.is_dir():
        return f"data directory {path} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"data directory {path} is not writable"
    return None


def _writable_dir(path: Path, create: bool = True) -> bool:
    if data_dir_problem(path) is not None:
        return False
    if not create:
        return True
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def resolve_data_dir(wanted: Path, create: bool = True) -> tuple[Path, str | None]:
    """``wanted`` when it can be created and written, else a per-user directory.

    Returns the directory and, when it fell back, a sentence saying so (for the log).
    ``create=False`` only decides (``kiosk run`` before it knows a window opens).
    """
    if _writable_dir(wanted, create):
        return wanted, None
    fallback = user_data_dir()
    if create:
        _writable_dir(fallback)
    why = data_dir_problem(wanted) or f"data directory {wanted} is not writable"
    return fallback, f"{why}; using {fallback}"


def config_path(explicit: str | os.PathLike[str] | None = None,
                env: Mapping[str, str] | None = None) -> tuple[Path, bool]:
    """The file to read and whether it was asked for (explicitly or by the variable)."""
    env = os.environ if env is None else env
    if explicit:
        return Path(explicit), True
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]), True
    return DEFAULT_PATH, False


def load(path: str | os.PathLike[str] | None = None,
         env: Mapping[str, str] | None = None, *, fallback: bool = False,
         remember: bool = False) -> Config:
    """Read the configuration; never raises (problems end up in ``Config.problems``).

    ``fallback``: a file that is not UTF-8 or not TOML is replaced by the copy of the last
    one that parsed; ``remember``: a file that parses is copied for next time (only the
    kiosk itself does that, see the module docstring)."""
    file, asked = config_path(path, env)
    try:
        raw = readfile.read_bytes(file, MAX_CONFIG_BYTES)
    except readfile.ReadError as err:
        if not err.missing:  # unreadable or absurdly large: the last good copy serves
            return _unparsed(file, b"", err.why, fallback)
        cfg = Config()
        cfg.games = default_games()
        if asked:
            cfg.problems.append(Problem(Reason("{error}; using the built-in defaults",
                                               error=err.value)))
        return cfg
    try:
        data = readfile.parse_toml(readfile.decode(raw, file), file)
    except readfile.ReadError as err:
        return _unparsed(file, raw, err.why, fallback)
    cfg = Config(path=file)
    _Reader(cfg, str(file)).read(data)
    if remember:
        _keep_copy(cfg, raw)
    return cfg


def _unparsed(file: Path, raw: bytes, why: Reason | str, fallback: bool) -> Config:
    """The configuration when ``file`` cannot be parsed: its last good copy, or defaults."""
    copy = _find_copy(raw) if fallback else None
    if copy is not None:
        try:
            data = readfile.read_toml(copy, MAX_CONFIG_BYTES)
        except readfile.ReadError as err:
            log.error("%s (the last good copy cannot be used)", err)
        else:
            cfg = Config(path=copy)
            cfg.problems.append(Problem(Reason(
                "{file}: {reason}; using the last configuration that loaded cleanly (copy "
                "kept in {copy})", file=str(file), reason=why, copy=str(copy))))
            _Reader(cfg, str(copy)).read(data)
            cfg.broken_file = file
            return cfg
    cfg = Config(path=file)
    cfg.games = default_games()
    cfg.problems.append(Problem(Reason("{file}: {reason}; using the built-in defaults",
                                       file=str(file), reason=why)))
    cfg.broken_file = file
    return cfg


#: ``data_dir = "..."`` in a file that does not parse: only to find the copy
_DATA_DIR_LINE = re.compile(rb'^[ \t]*data_dir[ \t]*=[ \t]*"([^"\\\n]+)"', re.MULTILINE)


def _find_copy(raw: bytes) -> Path | None:
    """The last good copy: in the data directory the broken file still seems to name, else
    the default one, else the per-user one (where :func:`resolve_data_dir` would have put
    it). Nothing is created."""
    dirs = [Path(m.decode("utf-8", "replace")) for m in _DATA_DIR_LINE.findall(raw)]
    for d in (*dirs, DEFAULT_DATA_DIR, user_data_dir()):
        copy = d / LAST_GOOD_NAME
        if copy.is_file():
            return copy
    return None


def remember(cfg: Config) -> None:
    """Keep the copy ``load(remember=True)`` would have kept, later: ``kiosk run`` loads
    first and writes into the data directory only once the kiosk really starts."""
    if cfg.path is None or cfg.broken_file is not None or cfg.path.name == LAST_GOOD_NAME:
        return
    try:
        raw = readfile.read_bytes(cfg.path, MAX_CONFIG_BYTES)
    except readfile.ReadError:
        return
    _keep_copy(cfg, raw)


def _keep_copy(cfg: Config, raw: bytes) -> None:
    """Copy a file that parsed to the data directory, for the day it stops parsing; only
    when it changed (a card lives longer without needless writes)."""
    from kiosk.platform.atomicfile import write_atomic

    try:
        copy = cfg.data_dir() / LAST_GOOD_NAME
        try:
            if copy.read_bytes() == raw:
                return
        except OSError:
            pass
        write_atomic(copy, raw.decode("utf-8"), mode=0o600)
    except (OSError, UnicodeDecodeError) as err:
        log.warning("cannot keep a copy of the configuration: %s", err)


def load_text(text: str, file: str | os.PathLike[str] = "<text>") -> Config:
    """Parse configuration text; ``file`` is only used in messages."""
    cfg = Config(path=Path(file))
    try:
        data = readfile.parse_toml(text.removeprefix("\ufeff"), file)
    except readfile.ReadError as err:
        cfg.games = default_games()
        cfg.problems.append(Problem(Reason("{error}; using the built-in defaults",
                                           error=err.value)))
        return cfg
    _Reader(cfg, str(file)).read(data)
    return cfg


# ---------------------------------------------------------------------------- validation
class _Bad(Exception):
    """A value is wrong; the message (a :class:`Reason`, as a rule) says what is expected."""

    def __init__(self, why: Reason | str) -> None:
        super().__init__(why)
        self.why = why


def _show(value: Any, limit: int = 80) -> str:
    """A value as a message quotes it, cut short: a problem stays one readable line even
    when the value is a list of thousands of items."""
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, dict):
        text = "a table"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _text(max_len: int = 60) -> Callable[[Any], str]:
    """One line of text for the screen: control characters (a NUL, a newline, an escape
    written as ``\\u0000`` in TOML) have no glyph and would break the line."""
    def check(v: Any) -> str:
        if not isinstance(v, str):
            raise _Bad(Reason("{value} is not text (write it in quotes)", value=_show(v)))
        v = v.strip()
        if not v or len(v) > max_len:
            raise _Bad(Reason("must be 1 to {n} characters", n=max_len))
        if any(unicodedata.category(ch) == "Cc" for ch in v):
            raise _Bad(Reason("must be one line without control characters"))
        if not any(unicodedata.category(ch)[0] in "LNPS" for ch in v):
            raise _Bad(Reason("has no visible character"))
        return v
    return check


def _boolean(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad(Reason("{value} is not true or false", value=_show(v)))
    return v


def _number(lo: float, hi: float, whole: bool = False) -> Callable[[Any], float]:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or (whole and
                                                                      not isinstance(v, int)):
            raise _Bad(Reason("{value} is not a whole number", value=_show(v)) if whole else
                       Reason("{value} is not a number", value=_show(v)))
        if not lo <= v <= hi:
            raise _Bad(Reason("{value} is out of range ({lo} to {hi})", value=_show(v),
                              lo=format(lo, "g"), hi=format(hi, "g")))
        return int(v) if whole else float(v)
    return check


def _choice(options: tuple[Any, ...]) -> Callable[[Any], Any]:
    """One of ``options``, returned as the option itself: ``90.0 == 90``, so a float passes
    the comparison, and Kivy, which parses the rotation with ``int()``, then cannot start
    from ``"90.0"``. A whole float is read as its number; any other type is refused."""
    def check(v: Any) -> Any:
        for option in options:
            if type(v) is type(option) and v == option:
                return option
            if isinstance(option, int) and type(v) is float and v == option:
                return option
        allowed = ", ".join(_show(o) for o in options)
        raise _Bad(Reason("{value} is not one of {allowed}", value=_show(v), allowed=allowed))
    return check


def _pin(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(Reason("{value} is not a whole number", value=_show(v)))
    if not PIN_RANGE[0] <= v <= PIN_RANGE[1]:
        raise _Bad(Reason("{value} is not a GPIO pin (BCM {lo} to {hi})", value=str(v),
                          lo=PIN_RANGE[0], hi=PIN_RANGE[1]))
    return v


def _chip(v: Any) -> str:
    """The word "auto", or a GPIO chip's label as the kernel gives it (31 characters at most)."""
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z0-9_.:@,+/-]{1,31}", v.strip()):
        raise _Bad(f"{_show(v)} is not \"auto\" or a GPIO chip's label (like "
                   "\"pinctrl-bcm2711\")")
    return v.strip()


def _operator_pin(v: Any) -> str:
    """4 to 8 digits (hashed here) or a hash from ``kiosk operator pin --hash``."""
    from kiosk.settings.operator_pin import PinError, check_hash, hash_pin

    if isinstance(v, str) and v.startswith("scrypt$"):
        try:
            return check_hash(v)
        except PinError as err:
            raise _Bad(value_of(err)) from None
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        v = str(v)
    if not isinstance(v, str):
        raise _Bad(Reason("is not a string of digits (write it in quotes)"))
    if not v.isascii() or not v.isdigit():
        raise _Bad(Reason("is not a string of digits"))
    if not 4 <= len(v) <= 8:
        raise _Bad(Reason("must be 4 to 8 digits"))
    return hash_pin(v)


def _path(v: Any) -> Path:
    if not isinstance(v, str) or not v.strip():
        raise _Bad(Reason("{value} is not a path (write it in quotes)", value=_show(v)))
    if "\0" in v:  # the OS cannot take it: every file call would raise ValueError
        raise _Bad(Reason("{value} has a NUL character; not a path", value=_show(v)))
    p = Path(v.strip())
    if not p.is_absolute():
        raise _Bad(Reason("{value} is not an absolute path", value=_show(v)))
    return p


def _server(v: Any) -> str:
    # libpq takes no blanks, and a NUL would end its C string early: printable only
    if not isinstance(v, str) or not v.strip() or any(
            c.isspace() or c in "'\\=" or not c.isprintable() for c in v.strip()):
        raise _Bad(Reason("{value} is not a host name or a socket directory (write it in "
                          "quotes)", value=_show(v)))
    v = v.strip()
    if not v.startswith("/"):
        # a resolver refuses these with an "idna codec" message no operator can act on
        if len(v) > 253:
            raise _Bad(Reason("{value} is not a host name (longer than 253 characters)",
                              value=_show(v, 40)))
        if any(len(label) > 63 or not label for label in v.rstrip(".").split(".")):
            raise _Bad(Reason("{value} is not a host name (each part between dots is 1 to 63 "
                              "characters)", value=_show(v, 40)))
    return v


def _window(v: Any) -> str:
    from kiosk.updates.window import WindowError, parse_window

    try:
        return str(parse_window(v))
    except WindowError as err:
        raise _Bad(str(err)) from None


def _time_zone(v: Any) -> str:
    from kiosk.updates.window import WindowError, zone

    try:
        zone(v)
    except WindowError as err:
        raise _Bad(str(err)) from None
    return str(v)


def _identifier(v: Any) -> str:
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}", v):
        raise _Bad(Reason("{value} is not a database or role name (letters, digits, _ . -)",
                          value=_show(v)))
    return v


def _secret(v: Any) -> str:
    if not isinstance(v, str) or not v or len(v) > 1000 or any(
            unicodedata.category(ch) == "Cc" for ch in v):
        raise _Bad(Reason("is not a password (one line of text in quotes)"))  # never echoed
    if not any(ch.isprintable() and not ch.isspace() for ch in v):
        raise _Bad(Reason("has no visible character; not a password"))
    if v != v.strip():  # a copy and paste that took a blank along: it would never match
        raise _Bad(Reason("has blanks before or after it; write the password alone in the "
                          "quotes"))
    return v


#: top-level key -> (attribute, checker); section -> key -> checker
_TOP: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "name": ("name", _text()),
    "language": ("language", _choice(LANGUAGES)),
    "idle_timeout": ("idle_timeout", _number(10, 86_400)),
    "operator_pin": ("operator_pin", _operator_pin),
    "rotation": ("rotation", _choice(ROTATIONS)),
    "four_colour": ("four_colour", _boolean),
    "autoplay": ("autoplay", _boolean),
}
_SECTIONS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "attract": {"enabled": _boolean, "delay": _number(10, 86_400)},
    "table": {
        "hints": _boolean, "hint_seconds": _number(0.2, 60), "winnable_check": _boolean,
        "check_seconds": _number(0.2, 600), "check_delay": _number(0, 60),
    },
    "buttons": {
        "new_deal_pin": _pin, "undo_pin": _pin, "chip": _chip, "pull": _choice(("up", "down")),
        "new_deal_hold": _number(0.5, 30), "undo_repeat_delay": _number(0.1, 10),
        "undo_repeat_interval": _number(0.05, 10), "debounce_ms": _number(0, 500, whole=True),
    },
    "log": {
        "data_dir": _path, "max_days": _number(0, 36_500, whole=True),
        "max_mb": _number(0, 1_000_000), "min_free_mb": _number(0, 1_000_000),
    },
    "export": {"usb_mount": _path},
    "fleet": {
        "server": _server, "port": _number(1, 65_535, whole=True),
        "database": _identifier, "user": _identifier, "password": _secret,
        "password_file": _path, "sslmode": _choice(SSL_MODES), "sslrootcert": _path,
        "sslcert": _path, "sslkey": _path, "batch_plays": _number(1, 100_000, whole=True),
        "connect_timeout": _number(1, 600, whole=True),
        "node_exporter_port": _number(1024, 65_535, whole=True), "metrics_dir": _path,
        "closed_network": _boolean,
    },
    "updates": {
        # at most 10: the sync unit ends a pass after 15 minutes (TimeoutStartSec)
        "window": _window, "time_zone": _time_zone, "download_minutes": _number(0.5, 10),
        "keep_free_mb": _number(0, 1_000_000), "ca_file": _path,
    },
}


_UNKNOWN_KEY = Reason("unknown key; ignored")


class _Reader:
    def __init__(self, cfg: Config, file: str) -> None:
        self.cfg, self.file = cfg, file

    def problem(self, key: str, message: Reason | str, default: Any = None, *,
                using: bool = True) -> None:
        """``<file>: <key>: <message>[; using <default>]``, kept as a :class:`Problem`."""
        if using:
            why = Reason("{file}: {key}: {problem}; using {default}", file=self.file, key=key,
                         problem=message, default=_show(default))
        else:
            why = Reason("{file}: {key}: {problem}", file=self.file, key=key, problem=message)
        self.cfg.problems.append(Problem(why))

    def read(self, data: dict[str, Any]) -> None:
        cfg = self.cfg
        for key, value in data.items():
            if key in _TOP:
                attr, check = _TOP[key]
                try:
                    setattr(cfg, attr, check(value))
                except _Bad as bad:
                    if attr == "operator_pin":  # never echo what may be most of a PIN
                        self.problem(key, Reason("{problem}; using the kiosk's own PIN (see "
                                                 "`kiosk operator pin --show`)",
                                                 problem=bad.why), using=False)
                    else:
                        self.problem(key, bad.why, getattr(cfg, attr))
            elif key in _SECTIONS:
                self.section(key, value)
            elif key == "games":
                continue
            else:
                self.problem(key, _UNKNOWN_KEY, using=False)
        self.games(data.get("games", {}))
        b = cfg.buttons
        if b.new_deal_pin == b.undo_pin:
            self.problem("buttons.undo_pin", Reason(
                "same pin as buttons.new_deal_pin ({pin}); using 17 for new deal and 27 for "
                "undo", pin=b.undo_pin), using=False)
            b.new_deal_pin, b.undo_pin = Buttons.new_deal_pin, Buttons.undo_pin

    def section(self, name: str, table: Any) -> None:
        target = getattr(self.cfg, name)
        if not isinstance(table, dict):
            self.problem(name, Reason("{value} should be a table [{name}]; using the defaults",
                                      value=_show(table), name=name), using=False)
            return
        if name == "fleet":
            target = self.cfg.fleet = Fleet()
        for key, value in table.items():
            check = _SECTIONS[name].get(key)
            if check is None:
                self.problem(f"{name}.{key}", _UNKNOWN_KEY, using=False)
                continue
            try:
                setattr(target, key, check(value))
            except _Bad as bad:
                if key == "password":
                    self.problem(f"{name}.{key}", bad.why, using=False)
                else:
                    self.problem(f"{name}.{key}", bad.why, _plain(getattr(target, key)))
        if name == "fleet":
            self.weak_tls(target)
            missing = [k for k in ("server", "user") if not getattr(target, k)
                       and not any(f": fleet.{k}: " in p for p in self.cfg.problems)]
            if missing:
                self.problem("fleet", Reason("{a} and {b} missing; this kiosk does not sync "
                                             "until they are set", a=missing[0], b=missing[1])
                             if len(missing) == 2 else
                             Reason("{a} missing; this kiosk does not sync until they are set",
                                    a=missing[0]), using=False)
            if not target.server or not target.user:
                self.cfg.fleet = None

    def weak_tls(self, fleet: Fleet) -> None:
        """TLS below verify-full over a network is a problem and is not used (an impostor
        server would get the password and could set the kiosk's PIN) unless the operator
        said the network is closed (``closed_network = true``)."""
        if fleet.server.startswith("/") or fleet.sslmode == "verify-full" \
                or fleet.closed_network:
            return
        self.problem("fleet.sslmode", Reason(
            "{value} {weakness}; give the CA file in sslrootcert and keep \"verify-full\" (on "
            "a closed network only: closed_network = true)", value=_show(fleet.sslmode),
            weakness=WEAK_TLS[fleet.sslmode]), "verify-full")
        fleet.sslmode = "verify-full"

    def games(self, table: Any) -> None:
        import games
        from games import GameError

        cfg = self.cfg
        known = set(games.ids())
        cfg.games = default_games()
        if not isinstance(table, dict):
            self.problem("games", Reason("{value} should be a table [games]; using all games",
                                         value=_show(table)), using=False)
            return
        for key, value in table.items():
            if key == "enabled":
                self.enabled(value, known)
            elif not isinstance(value, dict):
                self.problem(f"games.{key}", _UNKNOWN_KEY, using=False)
            elif key not in known:
                self.problem(f"games.{key}", Reason("unknown game {game}; ignored",
                                                    game=repr(key)), using=False)
            else:
                options = {o.name: o for o in games.game_class(key).options}
                chosen: dict[str, Any] = {}
                for name, v in value.items():
                    where = f"games.{key}.{name}"
                    if name == WINNABLE_KEY:
                        try:
                            on = _boolean(v)
                            (cfg.winnable_only if on else cfg.winnable_off).add(key)
                            (cfg.winnable_off if on else cfg.winnable_only).discard(key)
                        except _Bad as bad:
                            self.problem(where, Reason("{problem}; using the deal list's "
                                                       "default", problem=bad.why),
                                         using=False)
                    elif name in (OFFER_KEY, DEFAULT_KEY):
                        self.variant(key, name, v)
                    elif name not in options:
                        self.problem(where, Reason(
                            "{game} has no such option (its options: {names}); ignored",
                            game=key, names=", ".join(options)) if options else Reason(
                            "{game} has no such option (its options: none); ignored",
                            game=key), using=False)
                    else:
                        try:
                            chosen[name] = options[name].check(v)
                        except GameError as err:
                            self.problem(where, value_of(err), options[name].default)
                if chosen:
                    cfg.game_options[key] = chosen
        for gid, key in list(cfg.variant_default.items()):
            offer = cfg.variant_offer.get(gid)
            if offer is not None and key not in offer:
                del cfg.variant_default[gid]
                self.problem(f"games.{gid}.{DEFAULT_KEY}", Reason(
                    "{variant} is not offered ({offer_key} = {offer}); using {first}",
                    variant=repr(key), offer_key=OFFER_KEY, offer=str(offer), first=offer[0]),
                    using=False)

    def variant(self, game_id: str, name: str, value: Any) -> None:
        """``offer_variants`` (a list of the game's variant keys) or ``default_variant``
        (one of them); anything else is reported and that key ignored."""
        cfg, where = self.cfg, f"games.{game_id}.{name}"
        keys = [v.key for v in variants.variants_of(game_id)]
        if not keys:
            self.problem(where, Reason("{game} has no named variants; ignored", game=game_id),
                         using=False)
            return
        allowed = ", ".join(keys)
        if name == OFFER_KEY:
            if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
                self.problem(where, Reason("should be a list of variant names in quotes "
                                           "({allowed}); offering all", allowed=allowed),
                             using=False)
                return
            bad = [k for k in value if k not in keys]
            if bad or not value:
                self.problem(where, Reason("{value}: {game}'s variants are {allowed}; offering "
                                           "all", value=_show(bad or value), game=game_id,
                                           allowed=allowed), using=False)
                return
            cfg.variant_offer[game_id] = [k for k in keys if k in value]
        elif not isinstance(value, str) or value not in keys:
            self.problem(where, Reason("{value} is not a variant of {game} ({allowed}); using "
                                       "{first}", value=_show(value), game=game_id,
                                       allowed=allowed, first=keys[0]), using=False)
        else:
            cfg.variant_default[game_id] = value

    def enabled(self, value: Any, known: set[str]) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem("games.enabled", Reason("should be a list of game ids in quotes; using "
                                                 "all games"), using=False)
            return
        out: list[str] = []
        for gid in value:
            if gid not in known:
                self.problem("games.enabled", Reason("unknown game {game}; left out",
                                                     game=repr(gid)), using=False)
            elif not table_can_play(gid):
                self.problem("games.enabled", Reason("{game} cannot be played at the touch "
                                                     "table yet; left out", game=repr(gid)),
                             using=False)
            elif gid in out:
                self.problem("games.enabled", Reason("{game} is listed twice; kept once",
                                                     game=repr(gid)), using=False)
            else:
                out.append(gid)
        if out:
            self.cfg.games = out
        else:
            self.problem("games.enabled", Reason("no known game left; using all games"),
                         using=False)


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Path) else value


# ---------------------------------------------------------------------------- printing
def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str | Path):
        return json.dumps(str(v), ensure_ascii=False)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def to_toml(data: dict[str, Any], comments: Mapping[str, str] | None = None) -> str:
    """A small TOML writer for the shapes :meth:`Config.to_dict` produces; ``comments``:
    dotted key -> a comment for the end of its line (``config show``'s sources)."""
    lines: list[str] = []

    def emit(table: dict[str, Any], prefix: str) -> None:
        scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
        subs = {k: v for k, v in table.items() if isinstance(v, dict)}
        if prefix and (scalars or not subs):
            lines.append(f"\n[{prefix}]")
        for k, v in scalars.items():
            line = f"{k} = {_toml_value(v)}"
            note = (comments or {}).get(f"{prefix}.{k}" if prefix else k)
            lines.append(f"{line:<34}  # {note}" if note else line)
        for k, v in subs.items():
            emit(v, f"{prefix}.{k}" if prefix else k)

    emit(data, "")
    return "\n".join(lines).lstrip("\n") + "\n"
