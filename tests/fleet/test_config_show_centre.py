"""Issue 32, item 5, against the real server: the centre's settings, arrived with a sync
pass, are what `kiosk config show` prints, labelled with their version; a change in the
operator menu afterwards is labelled the menu's."""

from __future__ import annotations

import json

import pytest

from kiosk.commands.cli import main
from kiosk.fleet import heartbeat
from kiosk.settings import config, overrides


@pytest.fixture(autouse=True)
def _unit(monkeypatch):
    monkeypatch.setattr(heartbeat, "unit_properties", lambda unit=None: {})


def shown(k, capsys) -> dict:
    assert main(["config", "show", "--config", str(k.config), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_config_show_shows_the_centre_s_settings(make_kiosk, fleet_dsn, tmp_path, capsys):
    k = make_kiosk("lobby_1")
    before = shown(k, capsys)
    assert before["idle_timeout"] == 180 and before["sources"]["idle_timeout"] == "default"
    settings = tmp_path / "all.toml"
    settings.write_text('idle_timeout = 120\nlanguage = "zh"\n[attract]\ndelay = 600\n')
    assert main(["fleet", "settings", "set", "--dsn", fleet_dsn, "--all", str(settings)]) == 0
    capsys.readouterr()
    assert k.sync() == 0
    capsys.readouterr()
    after = shown(k, capsys)
    assert (after["idle_timeout"], after["language"], after["attract"]["delay"]) == (
        120, "zh", 600)
    assert {key: after["sources"][key] for key in ("idle_timeout", "language",
                                                   "attract.delay", "name")} == {
        "idle_timeout": "centre v1", "language": "centre v1", "attract.delay": "centre v1",
        "name": "file"}
    assert after["overrides"]["centre_version"] == 1
    # the operator changes the language in the menu: the newer change, the menu's
    overrides.save(config.load(k.config), k.data_dir, language="ru")
    again = shown(k, capsys)
    assert again["language"] == "ru" and again["sources"]["language"] == "operator menu"
    assert again["sources"]["idle_timeout"] == "centre v1"
    assert main(["config", "show", "--config", str(k.config)]) == 0
    text = capsys.readouterr().out
    assert "the centre's settings version 1" in text
    assert [ln for ln in text.splitlines() if ln.startswith("idle_timeout")] == [
        "idle_timeout = 120.0                # centre v1"]
