"""Sitting at a table replays the deal's stored winning line on the UI thread; Snake's run
to tens of thousands of moves, and on a 512 MB board under emulation the replay outlasted
the kiosk's watchdog as Snake opened (docs/benchmarks.md, "Boot on a 512 MB board")."""

from __future__ import annotations

import games
from kiosk.solving import deals
from kiosk.table import hint_state
from kiosk.table.hint_state import KNOWN_LINE_LIMIT, HintState


def _deal_of(game_id: str, longer: bool):
    """A deal of the game's winnable list whose stored line is longer (or not) than the
    limit, and that list."""
    opts = dict(games.new(game_id, 1).opts)
    lst = deals.load(game_id, opts)
    for d in lst.deals:
        seed = d["seed"] if isinstance(d, dict) else d
        if (len(lst.find(seed)["moves"]) > KNOWN_LINE_LIMIT) == longer:
            return games.new(game_id, seed, **opts), lst
    raise AssertionError(f"no deal of {game_id} with longer={longer}")


def test_a_long_stored_line_is_not_replayed_when_the_deal_starts(monkeypatch):
    replayed: list[int] = []
    real = deals.line
    monkeypatch.setattr(hint_state.deals, "line",
                        lambda g, moves: replayed.append(len(moves)) or real(g, moves))
    game, lst = _deal_of("snake", longer=True)
    state = HintState()
    state.follow(game, "start", lambda *_: lst)
    assert replayed == [], replayed
    assert state.verdict_of(game) == ""   # the worker answers this deal's hints


def test_a_short_stored_line_still_makes_hints_instant():
    game, lst = _deal_of("klondike", longer=False)
    state = HintState()
    state.follow(game, "start", lambda *_: lst)
    assert state.verdict_of(game) == "won"
    what, move = state.ask(game)
    assert what == "move" and move is not None
