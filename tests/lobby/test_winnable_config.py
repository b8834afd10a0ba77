""""Winnable deals only" per game: on by default where the deal list's tally says most deals
are lost, the operator's setting wins (file, menu, overrides), and config show/check say
which value is in force and why."""

from __future__ import annotations

import json

import pytest

from kiosk.commands import cli
from kiosk.settings import config, overrides
from kiosk.solving import deals


def _list(tmp_path, game, won, lost, unknown=0):
    import games

    lst = deals.DealList(game, games.new(game, 1).opts, [{"seed": 5, "moves": []}],
                         {"results": {"won": won, "lost": lost, "unknown": unknown}})
    deals.save(lst, tmp_path)


@pytest.fixture
def lists(tmp_path, monkeypatch):
    """golf: mostly lost, bisley: mostly won, clock: no list."""
    monkeypatch.setattr(deals, "DEALS_DIR", tmp_path)
    _list(tmp_path, "golf", 30, 60, 10)
    _list(tmp_path, "bisley", 75, 20, 5)
    return tmp_path


def test_default_from_the_list_and_the_operator_wins(lists):
    cfg = config.load_text("")
    assert cfg.winnable("golf")[0] is True and cfg.winnable("golf")[1].startswith("default:")
    assert cfg.winnable("bisley")[0] is False
    assert cfg.winnable("clock") == (False, "default: no deal list for these options")
    cfg = config.load_text("[games.golf]\nwinnable_only = false\n"
                           "[games.bisley]\nwinnable_only = true\n")
    assert cfg.winnable("golf") == (False, "set: games.golf.winnable_only = false")
    assert cfg.winnable("bisley") == (True, "set: games.bisley.winnable_only = true")
    assert cfg.winnable_off == {"golf"} and cfg.winnable_only == {"bisley"}
    assert cfg.to_dict()["games"]["golf"] == {"winnable_only": False}
    assert config.load_text(config.to_toml(cfg.to_dict())).winnable_off == {"golf"}


def test_config_show_and_check_say_the_value_and_where_it_comes_from(lists, tmp_path, capsys):
    path = tmp_path / "k.toml"
    path.write_text('[games]\nenabled = ["golf", "bisley", "clock"]\n'
                    "[games.clock]\nwinnable_only = true\n")
    assert cli.main(["config", "show", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "# winnable deals only" in out
    rows = [ln.split()[1:3] for ln in out.splitlines() if ln.startswith("#   ")]
    assert [r for r in rows if r[1] in ("on", "off")] == [
        ["golf", "on"], ["bisley", "off"], ["clock", "on"]]
    assert "but there is no usable deal list" in out
    assert cli.main(["config", "show", "--config", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winnable_only"]["golf"]["on"] is True
    assert data["winnable_only"]["clock"]["from"] == "set: games.clock.winnable_only = true"
    assert cli.main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "golf" in out and "clock" in out and "bisley" not in out and "OK" in out


def test_the_menu_s_choice_is_saved_in_the_file_or_the_overrides(lists, tmp_path,
                                                                monkeypatch):
    path = tmp_path / "k.toml"
    path.write_text('name = "Lobby"  # keep me\n[games]\nenabled = ["golf", "bisley"]\n')
    cfg = config.load(path)
    saved = overrides.save(cfg, tmp_path / "data", winnable={"golf": False})
    assert saved.ok and saved.where == "config"
    text = path.read_text()
    assert "# keep me" in text and "[games.golf]\nwinnable_only = false" in text
    assert config.load(path).winnable("golf")[0] is False
    # a read-only file (the image): the overrides file keeps the choice for the next start
    monkeypatch.setattr(overrides, "_writable", lambda _p: False)
    saved = overrides.save(config.load(path), tmp_path / "data", winnable={"bisley": True})
    assert saved.where == "overrides"
    fresh = config.load(path)
    assert overrides.apply(fresh, tmp_path / "data") == []
    assert fresh.winnable("bisley")[0] is True and fresh.winnable("golf")[0] is False


def test_the_overrides_file_keeps_winnable_choices_beside_the_games(lists, tmp_path):
    cfg = config.load_text("", str(tmp_path / "none.toml"))
    cfg.path = None
    data = tmp_path / "data"
    assert overrides.save(cfg, data, games=["golf", "bisley"]).where == "overrides"
    assert overrides.save(cfg, data, winnable={"golf": False}).where == "overrides"
    assert overrides.save(cfg, data, winnable={"bisley": True}).where == "overrides"
    fresh = config.Config()
    assert overrides.apply(fresh, data) == []
    assert fresh.games == ["golf", "bisley"]
    assert fresh.winnable_off == {"golf"} and fresh.winnable_only == {"bisley"}
