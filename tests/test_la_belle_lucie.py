"""La Belle Lucie (000 #24, 003): the base of the fan family, its redeals, draw and options."""

from __future__ import annotations

import games
from games import Move
from games.engine.cards import parse

from .conftest import all_cards, arrange, refused


def new(**options) -> games.Game:
    return games.new("la_belle_lucie", 1, **options)


def cards(text: str) -> list[int]:
    return [parse(t) for t in text.split()]


def test_deal_shape_and_layout():
    g = new()
    sizes = [len(g.pile(f"T{i}")) for i in range(1, 19)]
    assert sizes == [3] * 17 + [1]
    assert not any(g.down) and all(not g.pile(f"F{i}") for i in range(1, 5))
    assert g.vars == {"redeals": 2, "drawn": False}
    assert len(all_cards(g)) == 52
    for spec in g.layout:
        assert spec.x + 1 <= 10.5 and spec.y + 1.4 <= 6.5
        assert spec.fan == ("right" if spec.role == "tableau" else "none")


def test_build_down_in_suit_one_card_at_a_time():
    g = arrange(new(), {"T1": "9C 7C", "T2": "8C", "T3": "8S", "T4": "2D 6C"})
    refused(g, "T1>T3", "7♣ can only go on an 8 of clubs")
    refused(g, "T4>T2x2", "Only one card can be moved at a time")
    g.play("T1>T2")
    assert g.pile("T2") == cards("8C 7C")


def test_foundations_up_in_suit_and_cards_stay():
    g = arrange(new(), {"T1": "2H AH", "T2": "3S", "T3": "5C"})
    refused(g, "T2>F1", "Only an ace can start a foundation")
    g.play("T1>F1")
    refused(g, "T2>F1", "3♠ can only go on a 2 of spades")
    g.play("T1>F1")
    assert g.pile("F1") == cards("AH 2H")
    refused(g, "F1>T3", "Cards on a foundation cannot be moved")


def test_empty_fan_is_never_filled_not_even_with_a_king():
    g = arrange(new(), {"T1": "KD", "T2": "5C"})
    refused(g, "T1>T3", "An empty fan cannot be filled")
    assert Move("move", g.index["T1"], g.index["T3"]) not in g.legal_moves()


def test_redeal_only_when_stuck_shuffles_and_undoes_exactly():
    g = arrange(new(), {"F1": "AH", "T1": "9C 5D", "T2": "JS 2H", "T3": "4C 8D 3S",
                        "T4": "KH QC", "T5": "6S 7H"}, redeals=2, drawn=False)
    refused(g, "redeal", "only redeal when no card can move")  # 2H can still go to the foundation
    g.play("T2>F1")
    assert g.legal_moves() == [Move("redeal")]
    before, deck, on_fans = g.key(), all_cards(g), sorted(c for t in g.tableau for c in g.cards[t])
    g.play("redeal")
    after = g.key()
    assert [len(g.pile(f"T{i}")) for i in range(1, 6)] == [3, 3, 3, 1, 0]
    assert sorted(c for t in g.tableau for c in g.cards[t]) == on_fans
    assert g.pile("F1") == cards("AH 2H") and all_cards(g) == deck
    assert g.vars["redeals"] == 1
    g.undo()
    assert g.key() == before
    g.redo()
    assert g.key() == after  # the same shuffle again: it comes from the deal number


def test_a_saved_game_replays_its_redeals_exactly():
    g = new(redeal_any_time=True)
    dealt = [list(p) for p in g.cards]
    g.play("redeal")
    first = [list(p) for p in g.cards]
    g.play("redeal")
    assert dealt != first != g.cards  # each redeal shuffles anew
    copy = games.from_json(g.to_json())
    assert copy.key() == g.key() and copy.vars["redeals"] == 0


def test_the_redeals_run_out():
    g = arrange(new(), {"T1": "9C 5D", "T2": "JS 4H"}, redeals=0, drawn=False)
    assert g.legal_moves() == [] and g.over
    refused(g, "redeal", "All the redeals have been used")
    assert games.new("la_belle_lucie", 1, redeals=0).vars["redeals"] == 0
    refused(arrange(games.new("la_belle_lucie", 1, redeals=0), {"T1": "5D"}), "redeal",
            "This game has no redeals")


def stuck_for_the_draw(game: games.Game, redeals: int = 0) -> games.Game:
    # tops 7D, 8S, 2S, 6S cannot move; buried 4H fits F1, 6D fits on 7D, 5S fits on its own 6S
    return arrange(game, {"F1": "AH 2H 3H", "T1": "4H 7D", "T2": "7C 8S", "T3": "6D 2S",
                          "T4": "5S 6S"}, redeals=redeals, drawn=False)


def test_draw_option_plays_one_buried_card_once():
    g = stuck_for_the_draw(new(draw=True))
    i = g.index
    assert set(g.legal_moves()) == {
        Move("draw", i["T1"], i["F1"], 2), Move("draw", i["T3"], i["T1"], 2),
        Move("draw", i["T4"], i["T4"], 2)}
    refused(g, "draw:T1,F1", "Only a buried card")  # depth 1 is the top card
    refused(g, "draw:T2,F1,2", "does not fit there")
    before = g.key()
    g.play("draw:T3,T1,2")
    assert g.pile("T1") == cards("4H 7D 6D") and g.pile("T3") == cards("2S")
    assert g.vars["drawn"] is True
    refused(g, "draw:T1,F1,3", "already been used")
    g.undo()
    assert g.key() == before
    g.play("draw:T4,T4,2")  # onto the top of its own fan
    assert g.pile("T4") == cards("6S 5S")


def test_draw_needs_the_option_and_comes_after_the_last_redeal():
    refused(stuck_for_the_draw(new()), "draw:T1,F1,2", "This game has no draw")
    g = stuck_for_the_draw(new(draw=True), redeals=1)
    assert g.legal_moves() == [Move("redeal")]
    refused(g, "draw:T1,F1,2", "only after the last redeal")
    g = arrange(new(draw=True), {"T1": "4H AH", "T2": "5C 6C"}, redeals=0, drawn=False)
    refused(g, "draw:T1,T2,2", "only draw a card when no other card can move")


def test_any_suit_option():
    g = arrange(new(any_suit=True), {"T1": "7C", "T2": "8H", "T3": "9D"})
    refused(g, "T1>T3", "7♣ can only go on an 8")
    g.play("T1>T2")
    refused(arrange(new(), {"T1": "7C", "T2": "8H"}), "T1>T2", "8 of clubs")


def test_king_rule_option():
    g = arrange(new(king_rule=True), {"T1": "KD", "T2": "5C QS"})
    assert g.layout[g.index["T3"]].label == "K"
    refused(g, "T2>T3", "Only a king can go into an empty fan")
    g.play("T1>T3")


def test_redeal_any_time_option():
    g = arrange(new(redeal_any_time=True), {"T1": "AH", "T2": "5C"}, redeals=2, drawn=False)
    assert Move("redeal") in g.legal_moves()
    g.play("redeal")
    assert g.vars["redeals"] == 1
