"""Issue 12: a configuration that ``kiosk config check`` accepts must start the kiosk.

``rotation = 90.0`` passed the checker (``90.0 == 90``) and Kivy, which reads the rotation
with ``int()``, could not open a window from ``"90.0"``: under systemd a restart loop with
a black screen. So every value of every key is tried against the checker, and each value it
accepts must come out with the exact type of the key's default and give window settings
Kivy parses (:func:`kiosk.platform.boot.kivy_settings`, checked the way Kivy's ConfigParser reads
them). A representative set goes through ``kiosk run``'s start path up to the window in a
subprocess, read back by Kivy's own Config, and two real headless starts open a game with
weird but accepted values.
"""

from __future__ import annotations

import configparser
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import games
from kiosk.platform import boot
from kiosk.settings import config
from kiosk.solving import deals

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "lobby" / "start_child.py"
START_TIMEOUT = 180.0  # a loaded 2-core machine with Mesa's software renderer

#: TOML values of every shape: each is tried for every key
CANDIDATES = [
    # numbers at and around every range the checker has, written every way TOML allows
    "0", "-0", "0.0", "-0.0", "1", "2", "5", "10", "17", "27", "28", "30", "45", "50",
    "60", "90", "180", "270", "360", "-90", "500", "501", "600", "730", "86400", "86401",
    "36500", "1000000", "0.05", "0.1", "0.2", "0.5", "0.8", "1.5", "10.0", "90.0",
    "90.5", "180.0", "270.0", "270.000001", "3e1", "9e1", "1e6", "1e308", "-1", "-1.5",
    "1_000", "0x1b", "0o33", "0b11011", "nan", "+nan", "-nan", "inf", "+inf", "-inf",
    # booleans and text
    "true", "false", '"true"', '"90"', '"en"', '"zh"', '"ru"', '"EN"', '"zh_CN"', '"fr"',
    '""', '"  "', '"x"', '" Lobby "', '"' + "a" * 60 + '"', '"' + "a" * 61 + '"',
    r'"a\u0000b"', r'"a\nb"', r'"a\tb"', r'"\u007f"', r'"\u200f"', '"🂡 Lobby ⚑"',
    r'"quote \" and \\ back"', '"/tmp/kiosk-x"', '" /tmp/kiosk-y "', '"relative/dir"',
    r'"/a\u0000b"', '"/"', "'/tmp/literal'", '"verify-full"', '"disable"',
    '"db.example.org"', '"kiosk_lobby"', '"up"', '"down"', '"auto"', '"9030000.pl061"',
    '"pinctrl-bcm2711"', '"gpio@1,2+x:y/z"', '"' + "p" * 31 + '"', '"' + "p" * 32 + '"',
    '"03:00-05:00"', '" 23:30 - 1:00 "', '"3-5"',
    '"UTC"', '"Europe/Berlin"', '"Mars/Olympus"',
    # other TOML types
    "[]", "[90]", '["golf"]', "{}", "{ a = 1 }", "1979-05-27", "07:32:00",
    "1979-05-27T07:32:00Z",
]

#: every key the checker knows, with how it is written and read back; ``operator_pin``
#: is the PIN's own business (issue 12, "The operator PIN")
KEYS = [(None, key) for key in config._TOP if key != "operator_pin"] + [
    (section, key) for section, keys in config._SECTIONS.items() for key in keys]


#: ``[fleet]`` is taken only with a server and a kiosk role: the other keys are tried in a
#: section that has both
FLEET_BASE = {"server": '"db.example.org"', "user": '"kiosk_lobby"'}


def toml_for(section: str | None, key: str, literal: str) -> str:
    if section is None:
        return f"{key} = {literal}\n"
    base = "".join(f"{k} = {v}\n" for k, v in FLEET_BASE.items() if k != key) \
        if section == "fleet" else ""
    return f"[{section}]\n{base}{key} = {literal}\n"


def value_of(cfg: config.Config, section: str | None, key: str):
    if section is None:
        return getattr(cfg, config._TOP[key][0])
    target = getattr(cfg, section)
    if target is None and section == "fleet":  # no fleet: what a fleet would start from
        target = config.Fleet()
    return getattr(target, key)


def own_problems(cfg: config.Config, section: str | None, key: str) -> list[str]:
    """The problems a candidate value makes; a refused ``fleet.server`` or ``fleet.user``
    also leaves the section without it, which the checker says in a second line."""
    if section == "fleet" and key in FLEET_BASE:
        return [p for p in cfg.problems if ": fleet: " not in p]
    return cfg.problems


def default_of(section: str | None, key: str):
    return value_of(config.Config(), section, key)


def kivy_parse(settings: dict[tuple[str, str], str]) -> dict[str, object]:
    """The settings as Kivy's window reads them: kivy.config.ConfigParser is the standard
    library's, and the window uses getint/getboolean (kivy/core/window/__init__.py)."""
    parser = configparser.ConfigParser()
    for (section, key), value in settings.items():
        if not parser.has_section(section):
            parser.add_section(section)
        parser.set(section, key, value)
    got = {key: parser.getint("graphics", key)
           for key in ("width", "height", "rotation", "show_cursor", "multisamples")}
    got["resizable"] = parser.getboolean("graphics", "resizable")
    got["exit_on_escape"] = parser.getboolean("kivy", "exit_on_escape")
    got["fullscreen"] = parser.get("graphics", "fullscreen")
    assert got["fullscreen"] in ("auto", "0", "1")
    assert got["rotation"] in (0, 90, 180, 270)
    return got


@pytest.mark.parametrize("section, key", KEYS, ids=lambda v: str(v))
def test_every_value_the_checker_accepts_is_normalised_to_the_defaults_type(section, key):
    default = default_of(section, key)
    accepted = []
    for literal in CANDIDATES:
        cfg = config.load_text(toml_for(section, key, literal), "c.toml")
        if cfg.problems:
            # a refusal names the key and keeps the default
            problems = own_problems(cfg, section, key)
            assert len(problems) == 1 and key in problems[0], (literal, cfg.problems)
            assert value_of(cfg, section, key) == default
            continue
        value = value_of(cfg, section, key)
        accepted.append(literal)
        if default is None:  # an optional key (a fleet's password, its certificates, the
            # exporter's port): text, a path or a whole number, never a flag
            assert isinstance(value, str | Path | int) and not isinstance(value, bool), \
                (literal, value)
        else:
            assert type(value) is type(default), (literal, value)
        if isinstance(value, float):
            assert math.isfinite(value), literal
        if isinstance(value, str):
            assert value == value.strip() and "\n" not in value and "\0" not in value
            assert any(ch.isprintable() and not ch.isspace() for ch in value), literal
        if isinstance(value, Path):  # os.stat, mkdir and open raise ValueError on a NUL
            assert value.is_absolute() and "\0" not in str(value), literal
        if key == "rotation":
            assert value in config.ROTATIONS
        # what `config show` prints must be read back the same, without a problem
        again = config.load_text(config.to_toml(cfg.to_dict()), "shown.toml")
        assert again.problems == [] and again.to_dict() == cfg.to_dict(), literal
    assert accepted, f"no candidate is accepted for {key}: add some"


@pytest.mark.parametrize("game_id", games.ids())
def test_every_rule_option_the_checker_accepts_deals_a_game(game_id):
    """``[games.<id>]`` options: an accepted value has the option's own type and deals."""
    for option in games.game_class(game_id).options:
        literals = CANDIDATES + [json.dumps(c) for c in option.choices]
        for literal in literals:
            cfg = config.load_text(f"[games.{game_id}]\n{option.name} = {literal}\n", "c.toml")
            if cfg.problems:
                assert len(cfg.problems) == 1 and option.name in cfg.problems[0]
                assert cfg.options_for(game_id) == {}
                continue
            value = cfg.options_for(game_id)[option.name]
            assert type(value) is type(option.default), (option.name, literal)
            game = games.new(game_id, 1, **cfg.options_for(game_id))
            assert game.opts[option.name] == value


def test_rotation_accepts_whole_floats_as_their_number_and_nothing_else():
    got = {lit: config.load_text(f"rotation = {lit}\n", "c.toml") for lit in CANDIDATES}
    accepted = {lit: c.rotation for lit, c in got.items() if not c.problems}
    assert accepted == {"0": 0, "-0": 0, "0.0": 0, "-0.0": 0, "90": 90, "180": 180,
                        "270": 270, "90.0": 90, "180.0": 180, "270.0": 270, "9e1": 90}
    assert {type(v) for v in accepted.values()} == {int}  # 90.0 == 90, but "90.0" != "90"


@pytest.mark.parametrize("literal", CANDIDATES)
def test_every_accepted_rotation_gives_window_settings_kivy_parses(literal):
    cfg = config.load_text(f"rotation = {literal}\n", "c.toml")
    for portrait in (False, True):
        screen = boot.decide_screen(None, portrait, False, rotation=cfg.rotation)
        got = kivy_parse(boot.kivy_settings(screen))
        assert got["rotation"] == cfg.rotation
        assert (got["width"], got["height"]) == ((480, 800) if portrait else (800, 480))


@pytest.mark.parametrize("bad", [90.0, -0.0, 45, "90", True, None])
def test_kivy_settings_refuses_a_rotation_kivy_would_refuse(bad):
    with pytest.raises(ValueError, match="rotation"):
        boot.kivy_settings(boot.Screen(rotation=bad))


def test_every_accepted_size_gives_window_settings_kivy_parses():
    from kiosk.commands.app import parse_size

    for text in ("100x100", "800x480", "720x1280", "8192x8192", "800X480", " 800 x 480 "):
        w, h = parse_size(text)
        got = kivy_parse(boot.kivy_settings(boot.decide_screen((w, h), rotation=90)))
        assert (got["width"], got["height"]) == (w, h)


# ---------------------------------------------------------------------------- subprocesses
def child_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"),
               KIVY_NO_FILELOG="1", GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT),
               PYTHONUNBUFFERED="1")
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SOLITAIRE_KIOSK_CONFIG", "NOTIFY_SOCKET",
                "KIVY_NO_CONSOLELOG"):
        env.pop(var, None)
    return env


def our_tracebacks(log: str) -> list[str]:
    """Tracebacks in the output, less the one Kivy logs on a machine without libmtdev."""
    blocks = log.split("Traceback (most recent call last):")[1:]
    return [b[:1500] for b in blocks if "libmtdev" not in b[:1500]]


def test_the_start_path_up_to_the_window_gives_kivy_settings_it_reads(tmp_path):
    rotations = {"90.0": 90, "-0.0": 0, "180.0": 180, "270": 270, "9e1": 90}
    files = []
    for n, literal in enumerate(rotations):
        path = tmp_path / f"c{n}.toml"
        path.write_text(f'rotation = {literal}\n[log]\ndata_dir = "{tmp_path / "data"}"\n')
        files.append(str(path))
    done = subprocess.run([sys.executable, str(CHILD), "--kivy-settings-only", *files],
                          env=child_env(tmp_path), capture_output=True, text=True,
                          timeout=START_TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line.split(" ", 2) for line in done.stdout.splitlines()
             if line.startswith("SETTINGS ")]
    got = {path: json.loads(data)["rotation"] for _tag, path, data in lines}
    assert got == dict(zip(files, rotations.values(), strict=True))


def start(tmp_path: Path, cfg: Path, *extra: str) -> tuple[dict, str]:
    """``kiosk run`` headless until it has opened a game; its report and its log."""
    log_path = tmp_path / "run.log"
    began = time.monotonic()
    with open(log_path, "w") as log:
        done = subprocess.run([sys.executable, str(CHILD), "--config", str(cfg), "--windowed",
                               "--size", "800x480", *extra], env=child_env(tmp_path),
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=log, text=True,
                              timeout=START_TIMEOUT)
    text = log_path.read_text(errors="replace") + done.stdout
    print(f"start took {time.monotonic() - began:.1f} s")
    assert done.returncode == 0, text[-3000:]
    assert not our_tracebacks(text), our_tracebacks(text)[0]
    reports = [line for line in done.stdout.splitlines() if line.startswith("STARTED ")]
    assert len(reports) == 1, text[-3000:]
    return json.loads(reports[0].split(" ", 1)[1]), text


@pytest.mark.timeout(400)
def test_kiosk_run_starts_with_weird_but_accepted_values(tmp_path):
    """rotation = 90.0 and every other key at an edge the checker accepts."""
    data = tmp_path / "data"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"""
name = " Lobby ⚑ \u200f🂡 "
rotation = 90.0
language = "zh"
idle_timeout = 10
four_colour = true
autoplay = false
[attract]
enabled = true
delay = 10.0
[table]
hint_seconds = 0.2
check_seconds = 600
check_delay = 0
[buttons]
new_deal_pin = 2
undo_pin = 27
new_deal_hold = 30
undo_repeat_delay = 0.1
undo_repeat_interval = 0.05
debounce_ms = 0
[log]
data_dir = "{data}"
max_days = 36500
max_mb = 0.0
min_free_mb = 1000000
[export]
usb_mount = "/nonexistent/usb"
[games]
enabled = ["golf", "klondike"]
[games.golf]
queen_on_king = true
winnable_only = false
""")
    assert config.load(cfg).problems == []  # what `kiosk config check` says: OK
    report, _log = start(tmp_path, cfg)
    assert report["rotation"] == 90 and report["lang"] == "zh"
    assert report["game"] == "golf" and report["options"]["queen_on_king"] is True
    assert report["errors"] == 0 and report["problems"] == []


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_kiosk_run_starts_over_deeply_nested_overrides_and_deal_cycles(tmp_path):
    """The data directory's two files, each 2000 levels deep: the kiosk starts on the
    configuration file's settings and deals Klondike's winnable deals from a new cycle."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "overrides.toml").write_text("a = " + "[" * 2000 + "]" * 2000 + "\n")
    (data / "deal-cycles.json").write_text("[" * 100_000 + "]" * 100_000)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'rotation = 270\nlanguage = "ru"\n[log]\ndata_dir = "{data}"\n')
    report, log = start(tmp_path, cfg, "--game", "klondike")
    assert report["rotation"] == 270 and report["lang"] == "ru" and report["errors"] == 0
    assert report["problems"] == [f"{data / 'overrides.toml'}: nested too deeply to be read; "
                                  "ignored"]
    assert report["seed"] in deals.load("klondike", report["options"]).seeds
    assert "the deal cycles start again" in log
    cycles = json.loads((data / "deal-cycles.json").read_text())
    assert cycles[deals.list_path("klondike").stem]["last"] == report["seed"]


@pytest.mark.timeout(200)
def test_a_kiosk_without_a_window_says_so_in_one_line(tmp_path):
    """When Kivy opens no window (here: no window provider), the app used to go on and die
    in its first use of the window, with an AttributeError that hid Kivy's reason."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[log]\ndata_dir = "{tmp_path / "data"}"\n')
    done = subprocess.run([sys.executable, "-m", "kiosk", "run", "--config", str(cfg),
                           "--windowed"], env={**child_env(tmp_path), "KIVY_WINDOW": "nosuch"},
                          cwd=tmp_path, capture_output=True, text=True, timeout=START_TIMEOUT)
    assert done.returncode == 2
    assert not our_tracebacks(done.stderr), done.stderr[-3000:]
    assert done.stderr.rstrip().splitlines()[-1].strip().startswith(
        "kiosk: no window could be opened (Kivy has no window provider): start it from")
