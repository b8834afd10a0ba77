"""`kiosk deal`, `moves` and `replay` for Gin Rummy: hidden hands, whose turn, the support
replay from the visitor's moves alone, and the check of the recorded computer moves."""

from __future__ import annotations

import json

import games
from games.families.seats import replay_visitor
from kiosk.commands import cli


def _saved(tmp_path, data: dict):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _short_game() -> games.Game:
    g = games.new("gin_rummy", 4711)
    replay_visitor(g, ["take"])
    replay_visitor(g, [g.legal_moves()[0]])
    return g


def test_deal_hides_the_computers_hand_and_says_whose_turn(capsys):
    assert cli.main(["deal", "gin_rummy", "--seed", "4711"]) == 0
    out = capsys.readouterr().out
    h2 = next(line for line in out.splitlines() if line.strip().startswith("H2"))
    assert h2.split()[2:] == ["##"] * 10
    assert "to move: visitor (seat 0)" in out and "version gin-2" in out


def test_moves_lists_the_upcard_offer_in_notation(capsys):
    assert cli.main(["moves", "gin_rummy", "--seed", "4711"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == ["take",
                                                                                   "pass"]


def test_replay_from_the_visitors_moves_alone_rebuilds_the_computers(tmp_path, capsys):
    full = _short_game()
    data = {k: v for k, v in full.to_dict().items() if k != "moves"}
    data["visitor_moves"] = [full.notation(m) for k, m in enumerate(full.history)
                             if k in (0, 1)]
    assert cli.main(["replay", _saved(tmp_path, data), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["moves"] == len(full.history) == 4
    assert table["computer_check"]["mismatches"] == []


def test_replay_names_a_computer_move_this_version_would_not_make(tmp_path, capsys):
    full = _short_game()
    data = full.to_dict()
    g = games.new("gin_rummy", 4711)
    for text in data["moves"][:3]:
        g.play(text)
    other = next(m for m in g.legal_moves() if g.notation(m) != data["moves"][3])
    data["moves"][3] = g.notation(other)
    data["computer"]["version"] = "gin-0"
    assert cli.main(["replay", _saved(tmp_path, data)]) == 0
    out = capsys.readouterr().out
    assert "computer moves differ from version gin-2 at move 4 (recorded with version gin-0)" \
        in out


def test_bad_visitor_moves_are_one_line_and_status_2(tmp_path, capsys):
    data = {k: v for k, v in _short_game().to_dict().items() if k != "moves"}
    for bad, why in ((["take", "discard:ZZ"], "visitor move 2 (discard:ZZ) cannot be replayed"),
                     ("take", "'visitor_moves' must be a list of move texts")):
        data["visitor_moves"] = bad
        assert cli.main(["replay", _saved(tmp_path, data)]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and why in err
    golf = {"format": "solitaire-kiosk/game", "version": 1, "game": "golf", "seed": 1,
            "options": {}, "visitor_moves": []}
    assert cli.main(["replay", _saved(tmp_path, golf)]) == 2
    assert "has no computer seats" in capsys.readouterr().err


def test_the_picker_offers_gin_rummy_now_the_hand_table_plays_it():
    from kiosk.settings import config

    assert "gin_rummy" in config.default_games() and config.table_can_play("gin_rummy")
    cfg = config.load_text('[games]\nenabled = ["klondike", "gin_rummy"]\n')
    assert cfg.games == ["klondike", "gin_rummy"] and not cfg.problems
