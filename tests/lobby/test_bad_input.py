"""Issue 12: every file the kiosk reads, when malformed (deep nesting, huge, not UTF-8),
gives one line naming it and the defaults; every bad command-line value exits 2 with one
line. Each case is run the way an operator meets it: the command, or the start path of
``kiosk run`` up to the window (the real start is in test_config_starts.py)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

import games
from games import GameError
from kiosk.commands import app as app_cmd
from kiosk.commands import cli
from kiosk.platform import readfile
from kiosk.settings import config, overrides
from kiosk.solving import deals
from kiosk.solving.dealcycle import STATE_FILE, DealCycle

ROOT = Path(__file__).resolve().parents[2]

#: far deeper than tomllib's recursion survives (about 450) ...
DEEP_TOML = "a = " + "[" * 2000 + "]" * 2000 + "\n"
#: ... and than the json module's C decoder (about 1000)
DEEP_JSON = "[" * 100_000 + "]" * 100_000
DEEP_JSON_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


def saved_game(**changes) -> dict:
    data = games.new("klondike", 7).to_dict()
    data.update(changes)
    return data


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def error_line(text: str) -> str:
    """The one ``kiosk: ...`` line of a refused command (argparse's usage line may come
    before it)."""
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.startswith("kiosk: ")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.fixture
def no_system_data(tmp_path, monkeypatch):
    """A configuration that fails to load falls back to /var/lib/solitaire-kiosk: keep
    these tests out of the machine's own data directory."""
    here = tmp_path / "fallback-data"
    monkeypatch.setattr(config.Config, "data_dir", lambda self, create=True: here)
    monkeypatch.setattr(config.Config, "existing_db_path", lambda self: here / "plays.db")
    return here


# ---------------------------------------------------------------------------- the reader
@pytest.mark.parametrize("text, why", [
    (DEEP_TOML, "nested too deeply"),
    ("a = [" * 300 + "\n", "not valid TOML"),
])
def test_read_toml_turns_every_failure_into_one_line(tmp_path, text, why):
    path = tmp_path / "f.toml"
    path.write_text(text)
    with pytest.raises(readfile.ReadError) as err:
        readfile.read_toml(path)
    assert one_line(str(err.value)).startswith(f"{path}: ") and why in str(err.value)


@pytest.mark.parametrize("content, limit, why", [
    (DEEP_JSON.encode(), readfile.MAX_BYTES, "nested too deeply"),
    (DEEP_JSON_OBJECT.encode(), readfile.MAX_BYTES, "nested too deeply"),
    (b'{"a": NaN}', readfile.MAX_BYTES, "not valid JSON"),
    (b"\xff\xfe{}", readfile.MAX_BYTES, "not UTF-8"),
    (b"[" + b" " * 200 + b"]", 100, "too large (202 bytes; at most 100)"),
])
def test_read_json_turns_every_failure_into_one_line(tmp_path, content, limit, why):
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(readfile.ReadError) as err:
        readfile.read_json(path, max_bytes=limit)
    assert one_line(str(err.value)).startswith(f"{path}: ") and why in str(err.value)


def test_a_missing_file_and_a_directory_are_told_apart(tmp_path):
    with pytest.raises(readfile.ReadError) as err:
        readfile.read_text(tmp_path / "absent")
    assert err.value.missing
    with pytest.raises(readfile.ReadError) as err:
        readfile.read_text(tmp_path)
    assert not err.value.missing and "cannot be read" in str(err.value)


def test_reading_a_small_file_does_not_allocate_the_limit(tmp_path):
    """``read(limit + 1)`` allocated 32 MB before reading a config file of a few hundred
    bytes; the reader asks for what the file holds."""
    path = tmp_path / "small.toml"
    path.write_bytes(b'name = "Lobby"\n' * 20)
    tracemalloc.start()
    try:
        data = readfile.read_bytes(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == b'name = "Lobby"\n' * 20
    assert peak < 1024 * 1024, peak


def test_a_file_without_a_size_is_still_read_and_still_limited(tmp_path):
    """A device reports size 0: an endless one is cut at the limit, a short one read whole."""
    with pytest.raises(readfile.ReadError) as err:
        readfile.read_bytes("/dev/zero", max_bytes=300_000)
    assert "too large (more than 300000 bytes)" in str(err.value)
    assert readfile.read_bytes("/dev/null") == b""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b"x" * 200_000))
    writer.start()
    assert readfile.read_bytes(fifo) == b"x" * 200_000
    writer.join()


# ---------------------------------------------------------------------------- config.toml
def deep_config(tmp_path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('name = "Deep"\n' + DEEP_TOML)
    return path


def test_config_load_of_a_deeply_nested_file_gives_the_defaults_and_one_problem(tmp_path):
    path = deep_config(tmp_path)
    cfg = config.load(path)
    assert cfg.problems == [f"{path}: nested too deeply to be read; using the built-in defaults"]
    assert cfg.name == config.Config().name and cfg.games == config.default_games()


def test_config_check_of_a_deep_file_names_it_and_exits_1(tmp_path, capsys):
    """``config check``: 1 means "problems found, the kiosk starts with the defaults"."""
    path = deep_config(tmp_path)
    assert cli.main(["config", "check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert f"{path}: nested too deeply" in out and err == ""


def test_config_show_of_a_deep_file_warns_once_and_shows_the_defaults(tmp_path, capsys):
    path = deep_config(tmp_path)
    assert cli.main(["config", "show", "--config", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert one_line(err) == f"kiosk: warning: {path}: nested too deeply to be read; " \
        "using the built-in defaults"
    assert json.loads(out)["name"] == config.Config().name


@pytest.mark.parametrize("command", [["export"], ["stats"]])
def test_log_commands_with_a_deep_config_warn_once_and_carry_on(tmp_path, capsys, command,
                                                                no_system_data):
    path = deep_config(tmp_path)
    code = cli.main([*command, "--config", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    warning, *rest = err.splitlines()
    assert warning.startswith(f"kiosk: warning: {path}: nested too deeply")
    assert code == 2 and error_line("\n".join(rest))  # the fallback log does not exist


def run_args(tmp_path: Path, cfg: Path | None, *extra: str) -> argparse.Namespace:
    argv = ["run", "--windowed", *extra] + (["--config", str(cfg)] if cfg else [])
    return cli.build_parser().parse_args(argv)


def test_kiosk_run_with_a_deep_config_starts_on_the_defaults(tmp_path, no_system_data):
    path = deep_config(tmp_path)
    cfg, data_dir, notes = app_cmd.load_config(run_args(tmp_path, path))
    assert data_dir == no_system_data and notes == []
    assert cfg.problems == [f"{path}: nested too deeply to be read; using the built-in defaults"]


@pytest.mark.parametrize("text", [
    "name = [" + ", ".join(str(n) for n in range(5000)) + "]\n",
    'language = "' + "x" * 5000 + '"\n',
    "[log]\nmax_days = " + "9" * 4000 + "\n",
])
def test_a_huge_value_is_quoted_short_in_its_problem(text):
    cfg = config.load_text(text, "c.toml")
    (problem,) = cfg.problems
    assert len(problem) < 300 and "..." in problem


# ---------------------------------------------------------------------------- overrides.toml
def config_with_data(tmp_path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    data.mkdir()
    path = tmp_path / "config.toml"
    path.write_text(f'name = "Menu"\n[log]\ndata_dir = "{data}"\n')
    return path, data


def test_kiosk_run_with_deep_overrides_keeps_the_configuration(tmp_path):
    path, data = config_with_data(tmp_path)
    (data / overrides.FILE_NAME).write_text(
        f'based_on = "{overrides.fingerprint(path)}"\n' + DEEP_TOML)
    cfg, data_dir, notes = app_cmd.load_config(run_args(tmp_path, path))
    assert data_dir == data and cfg.name == "Menu" and cfg.problems == []
    assert one_line(notes[0]) == f"{data / overrides.FILE_NAME}: nested too deeply to be " \
        "read; ignored"


def test_the_menu_saves_over_deep_overrides(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / overrides.FILE_NAME).write_text(DEEP_TOML)
    cfg = config.load(tmp_path / "absent.toml", env={})  # no file: the overrides take it
    saved = overrides.save(cfg, data, language="ru")
    assert saved.ok and saved.where == "overrides"
    fresh = config.load(tmp_path / "absent.toml", env={})
    assert overrides.apply(fresh, data) == [] and fresh.language == "ru"


def test_the_menu_saves_beside_a_config_file_it_cannot_parse(tmp_path):
    """The file is writable but now deeply nested (edited since the kiosk started): the
    in-place edit gives up, the overrides file takes the change, the file is untouched."""
    path, data = config_with_data(tmp_path)
    cfg = config.load(path)
    path.write_text(DEEP_TOML)
    saved = overrides.save(cfg, data, language="zh")
    assert saved.ok and saved.where == "overrides"
    assert path.read_text() == DEEP_TOML


# ---------------------------------------------------------------------------- deal-cycles.json
@pytest.mark.parametrize("content", [DEEP_JSON, DEEP_JSON_OBJECT, '{"golf": [1, 2]}'])
def test_a_broken_deal_cycle_file_starts_the_cycles_again(tmp_path, caplog, content):
    (tmp_path / STATE_FILE).write_text(content)
    caplog.set_level(logging.WARNING)
    cycle = DealCycle("golf", [4, 5, 6], tmp_path)
    dealt = [cycle.next() for _ in range(3)]
    assert sorted(dealt) == [4, 5, 6]
    again = json.loads((tmp_path / STATE_FILE).read_text())
    assert again["golf"]["pos"] == 3 and again["golf"]["size"] == 3


def test_a_deep_deal_cycle_file_is_one_log_line(tmp_path, caplog):
    (tmp_path / STATE_FILE).write_text(DEEP_JSON)
    caplog.set_level(logging.WARNING)
    DealCycle("golf", [4, 5, 6], tmp_path)
    (record,) = caplog.records
    assert one_line(record.getMessage()) == f"{tmp_path / STATE_FILE}: cannot be read (nested " \
        "too deeply to be read); the deal cycles start again"


# ---------------------------------------------------------------------------- deal lists
@pytest.mark.parametrize("content", [DEEP_JSON, DEEP_JSON_OBJECT])
def test_a_deep_deal_list_is_no_list_and_kiosk_winnable_refuses_it(tmp_path, monkeypatch,
                                                                     capsys, content):
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    path = deals.list_path("golf", {})
    path.write_text(content)
    with pytest.raises(deals.DealListError) as err:
        deals.load_strict("golf", {})
    assert one_line(str(err.value)) == f"{path}: nested too deeply to be read"
    assert deals.load("golf", {}) is None
    assert cli.main(["winnable", "golf", "--count", "1", "--quiet"]) == 2
    assert "nested too deeply" in error_line(capsys.readouterr().err)
    assert path.read_text() == content  # not written over


@pytest.mark.parametrize("content, why", [
    ('{"format": "solitaire-kiosk/winnable", "version": true, "deals": []}', "version true"),
    ('{"format": "solitaire-kiosk/winnable", "version": 1, "game": ["golf"], "deals": []}',
     "not a game id"),
])
def test_a_deal_list_with_a_bool_version_or_a_bad_game_is_refused(tmp_path, content, why):
    path = deals.list_path("golf", {}, tmp_path)
    path.write_text(content)
    with pytest.raises(deals.DealListError) as err:
        deals.load_strict("golf", {}, tmp_path)
    assert why in str(err.value).replace("True", "true")


def test_a_bool_is_no_count_in_a_deal_lists_tally():
    lst = deals.DealList("golf", {}, solver={"results": {"won": True, "lost": 3}})
    assert lst.results == {"won": 0, "lost": 3, "unknown": 0}


def test_config_commands_survive_a_deep_deal_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    deals.list_path("golf", {}).write_text(DEEP_JSON)
    cfg = tmp_path / "config.toml"
    cfg.write_text('[games.golf]\nwinnable_only = true\n')
    assert cli.main(["config", "check", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "golf" in out and "no usable deal list" in out


# ---------------------------------------------------------------------------- saved games
@pytest.mark.parametrize("content, why", [
    (DEEP_JSON, "nested too deeply"),
    (DEEP_JSON_OBJECT, "nested too deeply"),
    (json.dumps(saved_game(version=True)), "version true"),
    (json.dumps(saved_game(options={"seed": 2})), "no option 'seed'"),
    (json.dumps(saved_game(options={"game_id": "golf"})), "no option 'game_id'"),
    (json.dumps(saved_game(seed=True)), "'seed' is missing or has the wrong type"),
    ('{"format": NaN}', "not valid JSON"),
])
def test_kiosk_replay_of_a_bad_saved_game_is_one_line_and_status_2(tmp_path, capsys, content,
                                                                   why):
    path = tmp_path / "save.json"
    path.write_text(content)
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and why in one_line(err)


def test_kiosk_replay_of_deep_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(DEEP_JSON))
    assert cli.main(["replay", "-"]) == 2
    assert one_line(capsys.readouterr().err) == "kiosk: <stdin>: nested too deeply to be read"


def test_the_engine_refuses_a_deep_saved_game_text():
    with pytest.raises(GameError, match="nested too deeply"):
        games.from_json(DEEP_JSON)


def test_a_saved_game_still_replays():
    game = games.new("klondike", 7)
    game.play(game.legal_moves()[0])
    again = games.from_json(json.loads(json.dumps(game.to_dict())))
    assert again.history == game.history


# ---------------------------------------------------------------------------- command lines
@pytest.mark.parametrize("argv, why", [
    *[(["solve", "klondike", "--seed", "1", "--max-nodes", "2000", f"--max-seconds={v}", *cpu],
       "--max-seconds")
      for v in ("-1", "-5", "0", "nan", "inf", "-inf") for cpu in ([], ["--cpu"])],
    (["solve", "klondike", "--seed", "1", "--max-nodes", "-5"], "--max-nodes"),
    (["winnable", "golf", "--count", "1", "--max-nodes", "10", "--max-seconds", "nan"],
     "--max-seconds"),
    (["winnable", "golf", "--count", "1", "--max-nodes", "10", "--start", "-5"], "--start"),
    (["winnable", "golf", "--count", "1", "--max-nodes", "0"], "--max-nodes"),
    (["deal", "klondike", "--seed", "3", "-o", "seed=4"], "no option 'seed'"),
    (["moves", "klondike", "--seed", "3", "-o", "game_id=golf"], "no option 'game_id'"),
])
def test_bad_numbers_and_options_exit_2_with_one_line(tmp_path, monkeypatch, capsys, argv, why):
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)  # `winnable` must not touch the assets
    assert cli.main(argv) == 2
    assert why in error_line(capsys.readouterr().err)
    assert not list(tmp_path.iterdir())


def kiosk(tmp_path: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"),
               KIVY_NO_FILELOG="1", GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT))
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SOLITAIRE_KIOSK_CONFIG", "NOTIFY_SOCKET"):
        env.pop(var, None)
    return subprocess.run([sys.executable, "-m", "kiosk", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("argv, why", [
    (["snapshot", "klondike", "--seed", "1", "--lang", "xx"], "--lang"),
    (["snapshot", "klondike", "--seed", "0"], "deal number"),
    (["snapshot", "klondike", "--seed", "-1"], "deal number"),
    (["run", "--lang", "xx"], "--lang"),
    (["run", "--game", "klondike", "--seed", "0"], "deal number"),
    (["run", "--seed", "5"], "need --game"),
])
def test_app_commands_refuse_bad_values_before_any_window(tmp_path, argv, why):
    """Each of these used to open a window anyway: an English snapshot, a kiosk that
    never ended, or a table that failed where no one reads the log."""
    if argv[0] == "snapshot":
        argv = [*argv, "--out", str(tmp_path / "shot.png")]
    else:
        cfg = tmp_path / "config.toml"
        cfg.write_text(f'[log]\ndata_dir = "{tmp_path / "data"}"\n')
        argv = [*argv, "--config", str(cfg), "--windowed"]
    done = kiosk(tmp_path, *argv, timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert why in error_line(done.stderr) and done.stdout == ""
    assert not (tmp_path / "shot.png").exists()


def test_language_names_a_locale_or_is_refused():
    from kiosk.commands._argtypes import language

    assert [language(v) for v in ("zh", "zh_CN", "ru-RU", "EN")] == ["zh", "zh", "ru", "en"]
    for bad in ("xx", "", "english"):
        with pytest.raises(argparse.ArgumentTypeError):
            language(bad)


def test_kiosk_run_without_any_display_says_so_in_one_line(tmp_path):
    """No desktop, no screen device, no driver asked for: SDL would fall back to drawing
    offscreen and the kiosk would run unseen, forever, printing nothing useful."""
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_FILELOG="1",
               GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT))
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SOLITAIRE_KIOSK_CONFIG"):
        env.pop(var, None)
    if Path("/dev/dri").exists() and any(Path("/dev/dri").glob("card*")):
        pytest.skip("this machine has a screen device: kmsdrm would draw on it")
    done = subprocess.run([sys.executable, "-m", "kiosk", "run", "--config",
                           str(tmp_path / "none.toml")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.startswith("kiosk:")]
    assert lines and "no display found" in lines[-1], done.stderr
    assert "kiosk snapshot" in lines[-1]  # and what to do
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("driver, says", [
    ("x11", "no display found (SDL_VIDEODRIVER is x11 but DISPLAY is not set)"),
    ("nosuchdriver", "no window could be opened (sdl2: nosuchdriver not available)"),
])
def test_kiosk_run_with_a_driver_that_cannot_open_says_so_in_one_line(tmp_path, driver,
                                                                      says):
    """SDL's driver forced to one that cannot open here: x11 without DISPLAY used to end in
    Kivy's own X11 window ("Couldn't connect to X server", status 102), an unknown driver
    in a wall of Kivy's tracebacks and status 1."""
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_FILELOG="1",
               GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT), SDL_VIDEODRIVER=driver)
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SOLITAIRE_KIOSK_CONFIG", "KIVY_WINDOW"):
        env.pop(var, None)
    done = subprocess.run([sys.executable, "-m", "kiosk", "run", "--config",
                           str(tmp_path / "none.toml")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    last = done.stderr.rstrip().splitlines()[-1]
    assert last.startswith(f"kiosk: {says}: start it from a desktop session"), done.stderr
    assert "Traceback" not in done.stderr and 'File "' not in done.stderr


def test_a_display_or_a_screen_device_or_an_asked_driver_is_enough(tmp_path):
    from kiosk.platform.boot import missing_display

    none = str(tmp_path / "dri")
    assert missing_display({}, none)
    assert missing_display({"DISPLAY": ":0"}, none) is None
    assert missing_display({"WAYLAND_DISPLAY": "wayland-0"}, none) is None
    assert missing_display({"SDL_VIDEODRIVER": "kmsdrm"}, none) is None
    assert "DISPLAY is not set" in missing_display({"SDL_VIDEODRIVER": "x11"}, none)
    assert missing_display({"SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"}, none) is None
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card0").touch()
    assert missing_display({}, none) is None


# ---------------------------------------------------------------------------- issue 25
def test_argparse_mistakes_are_one_line_that_points_to_help(capsys):
    """argparse's usage block (2 to 9 lines) buried the cause; every parser, a subcommand's
    or a future one's, now says it in one line."""
    for argv in (["deal"], ["operator", "pin"], ["export", "--format", "xls"], ["nope"]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert one_line(err).startswith("kiosk: ") and "--help" in err, argv


@pytest.mark.parametrize("argv, why", [
    (["deal", "klondike", "--seed", "\u0667"], "digits 0-9"),
    (["deal", "klondike", "--seed", "7_000"], "digits 0-9"),
    (["deal", "klondike", "--seed", "+7"], "digits 0-9"),
    (["moves", "klondike", "--seed", " 7"], "digits 0-9"),
    (["deal", "klondike", "--seed", "3", "-o", "draw= 3"], "no spaces"),
    (["deal", "klondike", "--seed", "3", "-o", "draw =3"], "no spaces"),
    (["deal", "klondike", "--seed", "3", "-o", "draw="], "NAME=VALUE"),
    (["winnable", "golf", "--count", "\u0661"], "digits 0-9"),
    (["solve", "gin_rummy", "--seed", "1"], "the solver is for solitaires"),
    (["winnable", "gin_rummy", "--count", "1"], "the solver is for solitaires"),
])
def test_odd_numbers_options_and_seated_solves_exit_2_with_one_line(tmp_path, monkeypatch,
                                                                   capsys, argv, why):
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    assert cli.main(argv) == 2
    assert why in one_line(capsys.readouterr().err)
    assert not list(tmp_path.iterdir())


def test_kiosk_winnable_of_a_seated_game_ends_at_once(tmp_path):
    """It used to run forever: no deal of a game against the computer is ever "won"."""
    done = kiosk(tmp_path, "winnable", "gin_rummy", "--count", "1", "--max-seconds", "1",
                 timeout=60)
    assert done.returncode == 2 and "solitaires" in one_line(done.stderr)


def test_snapshot_into_an_existing_directory_is_refused_before_any_window(tmp_path):
    out = tmp_path / "shots"
    out.mkdir()
    done = kiosk(tmp_path, "snapshot", "klondike", "--seed", "7", "--out", str(out),
                 timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "is a directory" in one_line(done.stderr) and done.stdout == ""
    assert not list(out.iterdir())


def test_operator_pin_set_takes_the_pin_as_typed(tmp_path, capsys):
    path, data = config_with_data(tmp_path)
    for pin in (" 1234", "1234 ", "12 34"):
        assert cli.main(["operator", "pin", "--set", pin, "--config", str(path)]) == 2
        assert "4 to 8 digits" in one_line(capsys.readouterr().err)
    assert not (data / "operator_pin").exists() and not list(data.iterdir())


@pytest.mark.parametrize("block, why", [
    ("x", "'computer' must be an object"),
    ({"level": "god"}, "computer level 'god'"),
    ({"level": "easy", "version": 7}, "computer version"),
    ({"level": "normal", "peek": True}, "no field 'peek'"),
    ({"level": "normal"}, "differs from the options"),
])
def test_a_seated_saved_game_with_a_junk_computer_block_is_refused(tmp_path, capsys, block,
                                                                   why):
    game = games.new("gin_rummy", 11, level="easy")
    game.play_computer()
    game.play(game.legal_moves()[0])
    data = {**game.to_dict(), "computer": block}
    file = tmp_path / "saved.json"
    file.write_text(json.dumps(data))
    assert cli.main(["replay", str(file)]) == 2
    assert why in one_line(capsys.readouterr().err)


def test_a_seated_saved_game_with_its_own_computer_block_still_replays(tmp_path, capsys):
    game = games.new("gin_rummy", 11, level="easy")
    file = tmp_path / "saved.json"
    file.write_text(game.to_json())
    assert cli.main(["replay", str(file)]) == 0
    assert "computer moves: as version" in capsys.readouterr().out


@pytest.fixture
def small_log(tmp_path, clock) -> Path:
    from kiosk.records.playlog import PlayLog

    db = tmp_path / "plays.db"
    log = PlayLog(db, kiosk="t", clock=clock, min_free_mb=0)
    log.finish(log.begin("klondike", 7), "abandoned", score=0, cards_left=52)
    log.close()
    return db


@pytest.mark.parametrize("argv, why", [
    (["export", "--game", "nope"], "unknown game 'nope'"),
    (["export", "--since", "2025-03-02", "--until", "2025-03-01"], "is after --until"),
])
def test_export_of_nothing_that_can_exist_is_refused(small_log, tmp_path, capsys, argv, why):
    out = tmp_path / "out.csv"
    assert cli.main([*argv, "--db", str(small_log), "--out", str(out)]) == 2
    assert why in one_line(capsys.readouterr().err)
    assert not out.exists()


@pytest.mark.parametrize("argv", [["export"], ["stats"], ["config", "show"]])
def test_a_missing_config_file_is_refused_not_read_as_the_defaults(tmp_path, capsys, argv):
    assert cli.main([*argv, "--config", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml': no such file" in one_line(capsys.readouterr().err)
    assert cli.main([*argv, "--config", str(tmp_path)]) == 2
    assert "is not a file" in one_line(capsys.readouterr().err)


def costly_hash(pin: str, n: int, r: int = 8) -> str:
    """A hash as another tool may make it (scrypt with more memory than OpenSSL allows by
    default); ``kiosk operator pin --hash`` never makes one."""
    import hashlib

    salt = bytes(range(16))
    key = hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=1, dklen=32, maxmem=1 << 28)
    return f"scrypt${n}${r}$1${salt.hex()}${key.hex()}"


def test_a_pin_hash_the_keypad_cannot_verify_is_refused_by_the_checker(tmp_path, capsys):
    from kiosk.settings.operator import PinGuard
    from kiosk.settings.operator_pin import verify

    hashed = costly_hash("4711", 2**15)
    path = tmp_path / "config.toml"
    path.write_text(f'operator_pin = "{hashed}"\n[log]\ndata_dir = "{tmp_path}"\n')
    assert cli.main(["config", "check", str(path)]) == 1
    assert "MiB" in capsys.readouterr().out
    assert config.load(path).operator_pin is None
    # whatever reaches the keypad, typing a PIN never raises
    assert verify("4711", hashed) is False
    assert PinGuard(hashed, clock=lambda: 0.0).check("4711") in ("wrong", "locked")
    assert verify("4711", costly_hash("4711", 2**14)) is True  # 16 MiB: still fine


def test_a_pseudo_filesystem_is_no_data_directory(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text('[log]\ndata_dir = "/proc"\n')
    assert cli.main(["config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "data_dir" in out and "/proc is on proc" in out
    here, note = config.resolve_data_dir(Path("/proc"), create=False)
    assert here == config.user_data_dir() and "not a file system that keeps files" in note
    assert config.data_dir_problem(tmp_path / "new" / "dir") is None


def test_kiosk_run_without_a_window_creates_no_data_directory(tmp_path):
    """It exits 2 (no display) and used to leave /var/lib/solitaire-kiosk behind."""
    data = tmp_path / "var" / "lib" / "solitaire-kiosk"
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[log]\ndata_dir = "{data}"\n')
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_FILELOG="1",
               GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="x11")
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SOLITAIRE_KIOSK_CONFIG", "NOTIFY_SOCKET"):
        env.pop(var, None)
    done = subprocess.run([sys.executable, "-m", "kiosk", "run", "--config", str(cfg)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "no display found" in error_line(done.stderr)
    assert not (tmp_path / "var").exists()
