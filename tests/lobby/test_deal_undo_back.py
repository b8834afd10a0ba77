"""A new deal puts the game in progress aside and Undo brings it back; the log says so."""

from __future__ import annotations

import json

from kiosk.records.logsession import LogSession
from kiosk.records.playlog import PlayLog
from kiosk.table.controller import SHELF_SIZE, TableController

from .conftest import rows


def played(ctl: TableController, n: int = 2) -> None:
    for _ in range(n):
        assert ctl.play(ctl.legal_moves()[0], "tap") is None


def test_undo_after_a_new_deal_brings_the_game_back_as_it_was():
    ctl = TableController("klondike", 4711, autoplay=False)
    played(ctl, 3)
    key, groups = ctl.game.key(), ctl.undo_groups
    restored = []
    ctl.bind(on_restore=lambda game, dropped, source: restored.append((game, dropped, source)))
    ctl.new_deal(source="gpio")
    fresh = ctl.game
    assert ctl.moves == 0 and ctl.can_undo and ctl.shelved == 1
    assert ctl.undo("gpio")
    assert ctl.game.key() == key and ctl.seed == 4711 and ctl.undo_groups == groups
    assert restored == [(ctl.game, fresh, "gpio")]
    assert ctl.undo() and ctl.moves == 2  # and on with the restored game's own moves


def test_presses_on_an_untouched_deal_keep_nothing_and_the_shelf_is_bounded():
    ctl = TableController("klondike", 1, autoplay=False)
    for _ in range(5):  # a child pressing New deal: nothing was played, nothing kept
        ctl.new_deal()
    assert ctl.shelved == 0 and not ctl.can_undo
    refused = []
    ctl.bind(on_refused=lambda what, source: refused.append(what))
    assert not ctl.undo() and refused == ["nothing_to_undo"]
    for _ in range(SHELF_SIZE + 2):
        played(ctl, 1)
        ctl.new_deal()
    assert ctl.shelved == SHELF_SIZE


def test_home_then_the_same_game_again_keeps_it_and_idle_forgets_it():
    left = TableController("klondike", 4711, autoplay=False)
    played(left, 2)
    left.leave("button")
    again = TableController("klondike", 99, autoplay=False)
    again.shelve_from(left)
    assert again.undo() and again.seed == 4711 and again.moves == 2
    other = TableController("golf", 5, autoplay=False)
    other.shelve_from(again)  # another game: Undo does not bring Klondike back
    assert other.shelved == 0
    again.new_deal()
    again.leave("idle")       # the visitor has gone: the next one starts afresh
    assert again.shelved == 0


def test_the_log_ends_the_abandoned_play_and_records_the_restore(db_path, clock):
    log = PlayLog(db_path, kiosk="lobby", clock=clock, min_free_mb=0)
    ctl = TableController("klondike", 4711, autoplay=False, clock=clock.mono)
    LogSession(log, ctl)
    played(ctl, 2)
    ctl.new_deal(source="key")
    ctl.undo("key")
    played(ctl, 1)
    ctl.leave()
    log.retry()
    assert rows(db_path, "SELECT seed, result, moves FROM plays ORDER BY id") == [
        (4711, "abandoned", 2), (4711, "abandoned", 1)]
    ((kind, detail),) = rows(db_path, "SELECT kind, detail FROM events WHERE kind = 'restored'")
    detail = json.loads(detail)
    assert detail["game"] == "klondike" and detail["seed"] == 4711 and detail["moves"] == 2
    assert detail["source"] == "key" and detail["dropped_seed"] != 4711
