"""Issue 32, item 5: ``kiosk config show`` tells the truth: the settings the kiosk will
use, after the operator menu's and the centre's overrides, each value with its source."""

from __future__ import annotations

import json
import os

import pytest

from kiosk.commands import cli
from kiosk.settings import config, overrides, sources

CONFIG = """\
name = "Library"
language = "en"
idle_timeout = 99999999
[attract]
delay = 60
[games]
enabled = ["klondike", "golf", "pyramid"]
"""


@pytest.fixture
def kiosk(tmp_path, monkeypatch):
    """A kiosk whose configuration file it may not write (the image): the menu's changes
    go to overrides.toml."""
    data = tmp_path / "data"
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + f'[log]\ndata_dir = "{data}"\n')
    monkeypatch.setattr(overrides, "_writable", lambda p: False)
    return path, data


def show(capsys, path, *extra) -> tuple[str, str]:
    assert cli.main(["config", "show", "--config", str(path), *extra]) == 0
    out = capsys.readouterr()
    return out.out, out.err


def line(out: str, key: str) -> str:
    """The one line of ``key`` (``enabled = [`` tells the games' from attract's)."""
    start = key if key.endswith("[") else f"{key} = "
    found = [ln for ln in out.splitlines() if ln.startswith(start)]
    assert len(found) == 1, (key, out)
    return found[0]


def test_file_menu_centre_and_default_each_named(kiosk, capsys):
    path, data = kiosk
    cfg = config.load(path)
    # the centre's version 7: idle timeout, attract delay, klondike winnable
    overrides.save_centre(cfg, data, {"idle_timeout": 120, "attract": {"delay": 600},
                                      "games": {"klondike": {"winnable_only": True}}}, 7, [3, 7])
    # then the menu: the language, the games, and the attract delay again (newer wins)
    overrides.save(cfg, data, language="zh", games=["golf", "klondike"])
    overrides.save(cfg, data, winnable={"golf": False})
    cfg2 = config.load(path)
    overrides.apply(cfg2, data)
    eff = sources.effective(path)
    assert eff.cfg.to_dict() == cfg2.to_dict()  # exactly what the kiosk runs with
    out, err = show(capsys, path)
    assert line(out, "name").endswith("# file")
    assert line(out, "language").startswith('language = "zh"') and \
        line(out, "language").endswith("# operator menu")
    assert line(out, "idle_timeout").startswith("idle_timeout = 120") and \
        line(out, "idle_timeout").endswith("# centre v7")
    assert line(out, "delay").startswith("delay = 600") and line(out, "delay").endswith(
        "# centre v7")
    assert line(out, "enabled = [").endswith("# operator menu")
    assert line(out, "rotation").endswith("# default")
    assert "the centre's settings version 7 (layers 3, 7)" in out
    assert "klondike  on   set: games.klondike.winnable_only = true (centre v7)" in out
    assert "golf      off  set: games.golf.winnable_only = false (operator menu)" in out
    # the file's refused value is said, on stderr as before, and in its label
    assert "idle_timeout" in err
    # the menu now changes a key the centre had set: the menu's is the newer
    overrides.save(cfg, data, winnable={"klondike": False})
    out, _err = show(capsys, path)
    assert "klondike  off  set: games.klondike.winnable_only = false (operator menu)" in out
    data_json, _err = show(capsys, path, "--json")
    shown = json.loads(data_json)
    assert shown["language"] == "zh" and shown["sources"]["language"] == "operator menu"
    assert shown["sources"]["idle_timeout"] == "centre v7"
    assert shown["sources"]["games.klondike.winnable_only"] == "operator menu"
    assert shown["overrides"] == {"path": str(data / "overrides.toml"),
                                  "centre_version": 7, "centre_layers": [3, 7]}


def test_what_show_prints_reads_back_as_the_same_configuration(kiosk, capsys):
    path, data = kiosk
    overrides.save(config.load(path), data, language="ru")
    out, _err = show(capsys, path)
    again = config.load_text(out, "shown.toml")
    assert again.problems == []
    eff = sources.effective(path)
    assert again.to_dict() == eff.cfg.to_dict()


def test_an_overrides_file_of_an_older_kiosk_still_loads_as_the_menu_s(kiosk, capsys):
    """Written before the centre existed: no [centre] table, all its keys the menu's."""
    path, data = kiosk
    data.mkdir()
    (data / "overrides.toml").write_text(
        "# Settings changed in the kiosk's operator menu. They apply on top of the\n"
        f'based_on = "{overrides.fingerprint(path)}"\n'
        'language = "ru"\n\n[games]\nenabled = ["pyramid"]\n\n'
        "[games.golf]\nwinnable_only = true\n")
    cfg = config.load(path)
    assert overrides.apply(cfg, data) == [] and cfg.language == "ru"
    out, err = show(capsys, path)
    assert line(out, "language").startswith('language = "ru"') and \
        line(out, "language").endswith("# operator menu")
    assert line(out, "enabled = [").startswith('enabled = ["pyramid"]')
    assert "golf" not in out.split("winnable deals only")[1]  # not enabled any more
    assert "# centre" not in out and "version" not in out.split("\n# after each")[0]


def test_show_moves_nothing_and_says_what_the_kiosk_will_do(kiosk, capsys):
    path, data = kiosk
    overrides.save(config.load(path), data, language="zh")
    path.write_text(path.read_text().replace('"Library"', '"Clinic"'))  # edited since
    out, err = show(capsys, path)
    assert (data / "overrides.toml").exists() and not (data / "overrides.toml.old").exists()
    assert line(out, "language").endswith("# file") and "sets it aside" in err


def test_an_overrides_file_it_cannot_read_is_said(kiosk, capsys):
    path, data = kiosk
    (data / "overrides.toml").mkdir(parents=True)  # unreadable as a file, also for root
    out, err = show(capsys, path)
    assert "cannot be read" in err and "sudo kiosk config show" in err
    assert line(out, "language").endswith("# file")


def test_the_operator_pin_s_source_is_said(kiosk, capsys):
    from kiosk.settings.operator_pin import PinStore

    path, data = kiosk
    out, _err = show(capsys, path)
    assert "draws a random PIN at its first start" in out
    PinStore(data).ensure()
    out, _err = show(capsys, path)
    assert "drawn at random by the kiosk" in out
    PinStore(data).set("4826")
    out, _err = show(capsys, path)
    assert "chosen with `kiosk operator pin --set`" in out
    assert os.path.exists(data / "operator-pin.json")
