""""Winnable deals only" in the running app: the table deals from the list at once, a new
deal is never the one just played, and the operator switches the mode per game on the
Games page (saved like the other settings of the menu)."""

from __future__ import annotations

import json

import pytest

from kiosk.settings import config
from kiosk.solving import deals
from kiosk.solving.dealcycle import STATE_FILE

#: a game whose list says most deals are lost: winnable deals only by default
GAME = "golf"


@pytest.fixture
def golf_list():
    lst = deals.load(GAME)
    if lst is None or not deals.mostly_lost(lst):
        pytest.skip(f"no deal list of {GAME} with most deals lost")
    return lst


def test_the_table_deals_from_the_list_and_never_the_same_deal_twice(ui, golf_list):
    app = ui.app
    assert app.cfg.winnable(GAME)[0] is True
    ctl = app.open_game(GAME)
    ui.frames(2)
    dealt = [ctl.seed]
    for _ in range(5):
        app.table.new_deal("button")
        dealt.append(ctl.seed)
    assert all(s in golf_list.seeds for s in dealt)
    assert len(set(dealt)) == len(dealt)  # one cycle through the list: no repeats
    state = json.loads((app.lobby_data_dir() / STATE_FILE).read_text())
    assert state[GAME]["last"] == dealt[-1]  # the cycle goes on after a restart
    app.go_welcome()


def test_the_operator_switches_winnable_deals_per_game(ui, golf_list):
    app = ui.app
    path = ui.config_path
    original = path.read_text()
    app.show_operator("games")
    ui.frames(2)
    menu = app.operator
    try:
        switch = menu.widgets["winnable"][GAME]
        assert switch.text == "Winnable"
        without = [g for g in app.game_ids() if not deals.list_path(g).is_file()]
        assert not set(without) & set(menu.widgets["winnable"])  # any deal is all they have
        ui.tap_widget(switch)
        assert app.cfg.winnable(GAME) == (False, f"set: games.{GAME}.winnable_only = false")
        assert config.load(path).winnable(GAME)[0] is False  # saved in the file
        assert 'flavour = "vanilla"' in path.read_text()  # the rest of the file is kept
        assert menu.widgets["winnable"][GAME].text == "Any deal"
        ctl = app.open_game(GAME)
        app.table.new_deal("button")
        assert ctl._seeds is None  # any deal now
        app.show_operator("games")
        ui.frames(2)
        ui.tap_widget(menu.widgets["winnable"][GAME])
        assert app.cfg.winnable(GAME)[0] is True
    finally:
        path.write_text(original)
        app.cfg.winnable_only.discard(GAME)
        app.cfg.winnable_off.discard(GAME)
        app.go_welcome()
