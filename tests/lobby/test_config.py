"""kiosk.settings.config: defaults, every kind of bad value, file lookup, the example file, the CLI."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import games
from kiosk.commands import cli
from kiosk.settings import config
from kiosk.settings.operator_pin import verify

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


#: what a bad operator_pin falls back to: never a PIN written anywhere
OWN_PIN = "the kiosk's own PIN (see `kiosk operator pin --show`)"


def load(text: str, name: str = "/etc/k.toml") -> config.Config:
    return config.load_text(text, name)


def test_defaults_without_a_file(tmp_path):
    cfg = config.load(tmp_path / "absent.toml", env={})
    assert cfg.problems == [f"{tmp_path / 'absent.toml'}: no such file; using the built-in "
                            "defaults"]
    d = config.Config()
    assert (d.language, d.buttons.new_deal_pin, d.buttons.undo_pin) == ("en", 17, 27)
    assert d.buttons.new_deal_hold == 3.0 and d.log.data_dir == Path("/var/lib/solitaire-kiosk")
    playable = [g for g in games.ids() if config.table_can_play(g)]
    assert set(cfg.games) == set(playable) and len(cfg.games) == len(playable)


def test_a_good_file_is_read_whole():
    cfg = load("""
name = "Central Library"
language = "zh"
idle_timeout = 90
operator_pin = "0042"
rotation = 270
four_colour = true
autoplay = false
[attract]
enabled = false
delay = 60
[buttons]
new_deal_pin = 5
undo_pin = 6
new_deal_hold = 2.5
undo_repeat_delay = 1
undo_repeat_interval = 0.25
debounce_ms = 30
[log]
data_dir = "/srv/kiosk"
max_days = 90
max_mb = 20
min_free_mb = 100
[export]
usb_mount = "/mnt/stick"
[games]
enabled = ["klondike"]
[games.klondike]
draw = 3
variant = "easy"
winnable_only = true
""")
    assert cfg.problems == []
    assert (cfg.name, cfg.language, cfg.idle_timeout) == ("Central Library", "zh", 90.0)
    assert verify("0042", cfg.operator_pin) and "0042" not in cfg.operator_pin
    assert (cfg.rotation, cfg.four_colour, cfg.autoplay) == (270, True, False)
    assert (cfg.attract.enabled, cfg.attract.delay) == (False, 60.0)
    b = cfg.buttons
    assert (b.new_deal_pin, b.undo_pin, b.new_deal_hold, b.undo_repeat_delay,
            b.undo_repeat_interval, b.debounce_ms) == (5, 6, 2.5, 1.0, 0.25, 30)
    assert (cfg.log.data_dir, cfg.log.max_days, cfg.log.max_mb, cfg.log.min_free_mb) == (
        Path("/srv/kiosk"), 90, 20.0, 100.0)
    assert cfg.export.usb_mount == Path("/mnt/stick")
    assert cfg.games == ["klondike"]
    assert cfg.options_for("klondike") == {"draw": 3, "variant": "easy"}
    assert cfg.winnable_only == {"klondike"}


@pytest.mark.parametrize("text, key, default", [
    ('language = "fr"', "language", '"en"'),
    ("language = 1", "language", '"en"'),
    ("idle_timeout = \"long\"", "idle_timeout", "180.0"),
    ("idle_timeout = 1", "idle_timeout", "180.0"),
    ("rotation = 45", "rotation", "0"),
    ("four_colour = 1", "four_colour", "false"),
    ("operator_pin = \"12ab\"", "operator_pin", OWN_PIN),
    ("operator_pin = \"12\"", "operator_pin", OWN_PIN),
    ("operator_pin = \"scrypt$1$x\"", "operator_pin", OWN_PIN),
    ("name = 5", "name", '"Solitaire kiosk"'),
    ("[buttons]\nundo_pin = 28", "buttons.undo_pin", "27"),
    ("[buttons]\nnew_deal_pin = 1", "buttons.new_deal_pin", "17"),
    ("[buttons]\nnew_deal_pin = true", "buttons.new_deal_pin", "17"),
    ("[buttons]\ndebounce_ms = 2.5", "buttons.debounce_ms", "50"),
    ("[buttons]\nchip = \"pin ctrl\"", "buttons.chip", '"auto"'),
    ("[buttons]\nchip = 0", "buttons.chip", '"auto"'),
    ("[buttons]\npull = \"sideways\"", "buttons.pull", '"up"'),
    ("[attract]\nenabled = \"yes\"", "attract.enabled", "true"),
    ("[table]\nhint_seconds = 0", "table.hint_seconds", "1.5"),
    ("[table]\nwinnable_check = 1", "table.winnable_check", "true"),
    ("[table]\ncheck_delay = \"soon\"", "table.check_delay", "1.0"),
    ("[log]\ndata_dir = \"relative/dir\"", "log.data_dir", '"/var/lib/solitaire-kiosk"'),
    ("[log]\nmax_days = -1", "log.max_days", "730"),
    ("[games.klondike]\ndraw = 2", "games.klondike.draw", "1"),
    ("[games.klondike]\nwinnable_only = 3", "games.klondike.winnable_only",
     "the deal list's default"),
])
def test_a_bad_value_gives_one_message_and_the_default(text, key, default):
    cfg = load(text)
    assert len(cfg.problems) == 1, cfg.problems
    msg = cfg.problems[0]
    assert msg.startswith(f"/etc/k.toml: {key}: ") and msg.endswith(f"; using {default}")
    fresh = config.Config()
    assert cfg.language == fresh.language and cfg.buttons == fresh.buttons
    assert cfg.log == fresh.log and cfg.attract == fresh.attract and cfg.table == fresh.table
    assert cfg.game_options == {} and cfg.winnable_only == set()


@pytest.mark.parametrize("text, key", [
    ("colour = 1", "colour"),
    ("[buttons]\nundo = 27", "buttons.undo"),
    ("[games.freecel]\ndraw = 1", "games.freecel"),
    ("[games.klondike]\nspeed = 3", "games.klondike.speed"),
    ("[games]\nenabled = [\"klondike\", \"freecel\"]", "games.enabled"),
    ("[games]\nenabled = \"klondike\"", "games.enabled"),
    ("buttons = 3", "buttons"),
])
def test_unknown_keys_and_games_are_named_and_ignored(text, key):
    cfg = load(text)
    assert len(cfg.problems) == 1, cfg.problems
    assert cfg.problems[0].startswith(f"/etc/k.toml: {key}: ")
    assert "klondike" in cfg.games


def test_same_pin_twice_falls_back_to_both_defaults():
    cfg = load("[buttons]\nnew_deal_pin = 22\nundo_pin = 22")
    assert len(cfg.problems) == 1 and "same pin" in cfg.problems[0]
    assert (cfg.buttons.new_deal_pin, cfg.buttons.undo_pin) == (17, 27)


def test_unknown_game_in_enabled_is_left_out_and_empty_list_means_all():
    cfg = load('[games]\nenabled = ["nosuch"]')
    assert len(cfg.problems) == 2
    assert cfg.games == config.default_games()


def test_broken_toml_gives_all_defaults_and_one_message():
    cfg = load('name = "x"\n[buttons\nundo_pin = 3')
    assert len(cfg.problems) == 1 and "not valid TOML" in cfg.problems[0]
    assert cfg.name == config.Config().name and cfg.buttons == config.Buttons()


def test_file_lookup_order(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('name = "from a"')
    b.write_text('name = "from b"')
    env = {config.ENV_VAR: str(b)}
    assert config.load(a, env=env).name == "from a"        # --config wins
    assert config.load(None, env=env).name == "from b"     # then the variable
    missing = config.load(tmp_path / "none.toml", env={})
    assert missing.problems == [f"{tmp_path / 'none.toml'}: no such file; using the built-in "
                                "defaults"]
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = \"\xff\"")
    assert "not UTF-8" in config.load(bad, env={}).problems[0]


def test_data_dir_falls_back_when_not_writable(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    blocker = tmp_path / "file"
    blocker.write_text("")  # a directory cannot be made under a file, even as root
    got, note = config.resolve_data_dir(blocker / "data")
    assert got == tmp_path / "state" / "solitaire-kiosk" and got.is_dir()
    assert note and "not writable" in note
    assert config.resolve_data_dir(tmp_path / "ok") == (tmp_path / "ok", None)


def test_show_output_reads_back_clean_and_equal():
    cfg = load('name = "Clinic"\n[games.klondike]\ndraw = 3\nwinnable_only = true')
    text = config.to_toml(cfg.to_dict())
    again = load(text)
    assert again.problems == [] and again.to_dict() == cfg.to_dict()


def test_example_file_is_clean_and_documents_every_key():
    cfg = config.load(EXAMPLE, env={})
    assert cfg.problems == []
    text = EXAMPLE.read_text()
    shown = config.Config().to_dict()
    for section, value in shown.items():
        if isinstance(value, dict):
            assert f"[{section}]" in text, section
            for key in value:
                assert f"{key} =" in text, f"{section}.{key}"
        else:
            assert f"\n{section} =" in text, section
    for opt in games.game_class("klondike").options:  # the example's [games.<id>] table
        assert f"{opt.name} =" in text, opt.name
    # the switched-off settings ("#key = value") are valid once switched on
    # (a section that is off as a whole, [fleet], has its "#[name]" line switched on too)
    switched_on = re.sub(r"(?m)^#(\w+ = |\[\w+\]$)", r"\1", text)
    assert switched_on != text
    assert config.load_text(switched_on, "example").problems == []


def test_cli_check_and_show(tmp_path, capsys):
    good = tmp_path / "good.toml"
    good.write_text('name = "Hotel"\n')
    assert cli.main(["config", "check", str(good)]) == 0
    assert "OK" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[buttons]\nundo_pin = 99\nnew_deal_pin = "x"\n')
    assert cli.main(["config", "check", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}: buttons.undo_pin:") and "2 problems" in out[-1]
    assert cli.main(["config", "show", "--config", str(good)]) == 0
    captured = capsys.readouterr()
    assert 'name = "Hotel"' in captured.out and captured.err == ""
    assert cli.main(["config", "show", "--config", str(bad), "--json"]) == 0
    captured = capsys.readouterr()
    assert '"undo_pin": 27' in captured.out and "undo_pin" in captured.err


def test_cli_check_exit_codes_in_a_subprocess(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("rotation = 45\n")
    env = {**os.environ, config.ENV_VAR: str(bad)}
    run = subprocess.run([sys.executable, "-m", "kiosk", "config", "check"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "rotation" in run.stdout and run.stderr == ""
    run = subprocess.run([sys.executable, "-m", "kiosk", "config", "frobnicate"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1].startswith("kiosk: ")
