"""kiosk.settings.overrides: the operator menu's settings survive a restart without ever damaging the
operator's configuration file."""

from __future__ import annotations

import os
import stat
import tomllib

import pytest

from kiosk.settings import config, overrides
from kiosk.settings.overrides import edit_text

CONFIG = """\
# Lobby kiosk -- keep this comment
name = "Library"   # shown in exports
language = "en"    # the default

[attract]
delay = 60

[games]
# the games, best first
enabled = [
  "klondike",   # everyone knows it
  "golf",
  "pyramid",
]

[games.klondike]
draw = 3
"""


def test_edit_keeps_comments_and_every_other_line():
    new = edit_text(CONFIG, {("", "language"): "zh", ("games", "enabled"): ["golf", "clock"]})
    assert "# Lobby kiosk -- keep this comment" in new
    assert 'language = "zh"  # the default' in new
    assert 'enabled = ["golf", "clock"]' in new and "everyone knows it" not in new
    assert "# the games, best first" in new and "[games.klondike]\ndraw = 3" in new
    data = tomllib.loads(new)
    assert data["name"] == "Library" and data["attract"] == {"delay": 60}
    assert data["games"]["klondike"] == {"draw": 3}


def test_edit_adds_missing_keys_and_tables():
    new = edit_text('name = "x"\n\n[attract]\ndelay = 60\n',
                    {("", "language"): "ru", ("games", "enabled"): ["golf"]})
    data = tomllib.loads(new)
    assert data == {"name": "x", "language": "ru", "attract": {"delay": 60},
                    "games": {"enabled": ["golf"]}}
    assert new.index("language") < new.index("[attract]")  # a top-level key stays on top


def test_edit_refuses_what_it_cannot_do_safely():
    with pytest.raises(ValueError):  # a dotted key: editing would declare [games] twice
        edit_text('games.enabled = ["golf"]\n', {("games", "enabled"): ["klondike"]})
    with pytest.raises(ValueError):
        edit_text('games = { enabled = ["golf"] }\n', {("games", "enabled"): ["klondike"]})


def test_save_edits_a_writable_config_in_place_atomically(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    os.chmod(path, 0o640)
    cfg = config.load(path)
    saved = overrides.save(cfg, tmp_path / "data", games=["golf", "klondike"], language="ru")
    assert saved.ok and saved.where == "config" and saved.path == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    again = config.load(path)
    assert again.games == ["golf", "klondike"] and again.language == "ru"
    assert not again.problems and "keep this comment" in path.read_text()
    assert not list(tmp_path.glob(".config.toml.*"))  # no temporary file left behind
    assert not (tmp_path / "data").exists()


def test_read_only_config_gets_an_overrides_file(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    before = path.read_bytes()
    monkeypatch.setattr(overrides, "_writable", lambda p: False)  # root can write anything
    data = tmp_path / "data"
    cfg = config.load(path)
    assert overrides.save(cfg, data, language="zh").where == "overrides"
    saved = overrides.save(cfg, data, games=["pyramid", "golf"])
    assert saved.ok and saved.where == "overrides" and saved.path == data / "overrides.toml"
    assert path.read_bytes() == before  # the operator's file is never touched
    fresh = config.load(path)
    notes = overrides.apply(fresh, data)
    assert notes == [] and fresh.games == ["pyramid", "golf"] and fresh.language == "zh"


def test_a_changed_config_file_wins_over_old_menu_settings(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    monkeypatch.setattr(overrides, "_writable", lambda p: False)
    data = tmp_path / "data"
    overrides.save(config.load(path), data, games=["pyramid"])
    path.write_text(CONFIG.replace('"golf",', '"golf", "clock",'))  # the operator edits it
    fresh = config.load(path)
    notes = overrides.apply(fresh, data)
    assert fresh.games == ["klondike", "golf", "clock", "pyramid"]
    assert len(notes) == 1 and "changed" in notes[0]
    assert (data / "overrides.toml.old").exists() and not (data / "overrides.toml").exists()


def test_bad_overrides_are_reported_and_ignored(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "overrides.toml").write_text('based_on = "none"\nlanguage = "fr"\n'
                                         '[games]\nenabled = ["nope", "golf"]\n')
    cfg = config.load(tmp_path / "missing.toml", env={})
    cfg.problems.clear()
    notes = overrides.apply(cfg, data)
    assert cfg.language == "en" and cfg.games == ["golf"]
    assert any("language" in n for n in notes) and any("nope" in n for n in notes)
    (data / "overrides.toml").write_text("this is not toml [")
    assert "not valid TOML" in overrides.apply(cfg, data)[0]
