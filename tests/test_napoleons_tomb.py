"""Napoleon's Tomb, the labelled reconstruction of 002 («Гробница Наполеона», GAMES.md §C4)."""

from __future__ import annotations

import random

import pytest

import games
from games import Move, solver
from games.engine.cards import KING, RANK, SUIT, parse
from games.search import Compound, searchable

from .conftest import all_cards, arrange, assert_keys_separate_positions, refused
from .conftest import plain_search as search_all

DOWN_FROM_KING = "KQJT98765432A"
#: the first reading (three passes, working piles built in suit up or down), now an option
OLD = {"passes": 3, "working_build": "either"}


def new(seed: int = 1, **opts) -> games.Game:
    return searchable(games.new("napoleons_tomb", seed, **opts))


def run(suit: str, ranks: str = DOWN_FROM_KING) -> str:
    return " ".join(r + suit for r in ranks)


def test_rules_text_says_what_is_reconstructed():
    rules = games.game_class("napoleons_tomb").info.rules
    assert "RECONSTRUCTION" in rules["en"] and "Western" in rules["en"]
    assert "重建" in rules["zh"] and "РЕКОНСТРУКЦИЯ" in rules["ru"]


def test_deal_shape_walls_working_cards_and_corner_kings():
    for seed in range(1, 40):
        g = new(seed)
        assert all_cards(g) == list(range(104))
        assert len(g.pile("S")) == 60 and g.down[g.stock] == 60 and g.pile("W") == []
        corners = [g.cards[f] for f in g.foundations]
        kings = [c[0] for c in corners if c]
        assert all(len(c) == 1 and RANK[c[0]] == KING for c in corners if c)
        assert len({SUIT[k] for k in kings}) == len(kings)
        assert all(corners[:len(kings)])  # corners fill in order
        assert sum(len(g.cards[p]) for p in (*g.walls, *g.tableau)) + len(kings) == 44
        for wall, work in zip(g.walls, g.tableau, strict=True):
            assert g.down[wall] == len(g.cards[wall]) - 1 and len(g.cards[work]) == 1
    g = new(5)  # a king of spades and one of diamonds were among the first eight cards
    assert g.pile("F1")[0] % 52 == parse("KS") and g.pile("F2")[0] % 52 == parse("KD")
    assert g.pile("R2")[-1] % 52 == parse("KD")  # the second one stays: diamonds have a corner


def test_kings_start_corners_once_per_suit():
    g = arrange(new(), {"R1": "KH", "W": "KH", "T1": "5C", "T2": "KS"})
    g.play("R1>F1")
    refused(g, "W>F2", "hearts already have a corner")
    refused(g, "T1>F2", "Only a king can start a foundation")
    assert g.safe_autoplay() == Move("move", g.index["T2"], g.index["F2"], 1)
    g.play("T2>F2")


def test_foundations_down_in_suit_then_second_king_on_the_ace():
    g = arrange(new(), {"F1": run("S"), "R1": "KS", "W": "QH", "R2": "QS", "T1": "2D",
                        "T2": "3D"})
    refused(g, "R2>F1", "needs the king of spades next")
    g.play("R1>F1")
    refused(g, "W>F1", "needs the queen of spades next")
    g.play("R2>F1")
    assert len(g.pile("F1")) == 15


def test_working_piles_take_wall_and_waste_cards_in_suit_up_or_down():
    g = arrange(new(**OLD), {"T1": "6H", "R1": "7H", "W": "8H", "R2": "5H", "R3": "6C",
                        "T2": "9D", "R4": "TD", "T3": "2C", "T4": "2S"})
    g.play("R1>T1")
    g.play("W>T1")
    refused(g, "R2>T1", r"The 5♥ can only go on a 6 or 4 of hearts\.")
    g.play("R4>T2")
    assert g.pile("T4") == [parse("2S")]  # an empty wall leaves its working pile alone
    refused(g, "T1>T2", "from a working pile to a working pile")
    refused(g, "R3>R2", "Nothing can be placed on a wall")
    refused(g, "R3>W", "waste cannot be filled")


@pytest.mark.parametrize("build,fits,unfit", [
    ("up", "7H", "5H"), ("down", "5H", "7H"), ("none", None, "7H")])
def test_working_build_option(build, fits, unfit):
    g = arrange(new(working_build=build), {"T1": "6H", "R1": fits or "2C", "R2": unfit,
                                           "T2": "2D"})
    if fits:
        g.play("R1>T1")
    refused(g, "R2>T1", "can only go on|Nothing can be placed")


def test_working_pile_refills_from_its_own_wall_in_the_same_move():
    g = arrange(new(), {"T1": "QH", "R1": "3C 7D 2S", "F1": "KH", "T2": "JS", "F2": "KS QS",
                        "W": "5S"}, {"R1": 2})
    before = g.key()
    g.play("T1>F1")
    assert g.pile("T1") == [parse("2S")] and g.pile("R1") == [parse("3C"), parse("7D")]
    assert g.down[g.index["R1"]] == 1  # the next wall card surfaced
    g.play("T2>F2")  # wall 2 is empty, so its working place stays empty
    assert g.pile("T2") == []
    refused(g, "W>T2", "An empty working pile cannot be filled")
    g.undo()
    g.undo()
    assert g.key() == before


def test_three_passes_by_default_and_one_as_an_option():
    for passes in (3, 1):
        g = new(7, passes=passes)
        g = arrange(g, {"S": "2C 3C"}, {"S": 2})
        for _ in range(passes):
            g.play("deal")
            g.play("deal")
            if _ < passes - 1:
                g.play("redeal")
        refused(g, "redeal", "No more redeals")


def test_lost_when_nothing_can_be_played():
    g = arrange(new(**OLD), {"W": "5C", "T1": "9D", "R1": "8C", "F1": "KH"}, redeals=0)
    assert not g.legal_moves() and g.over and not g.won


# ---------------------------------------------------------------- solver hooks
def endgame(seed: int, left: int = 5, cycle: bool = False) -> games.Game:
    """A random late position: each foundation is ``left`` cards short of its 26, and the
    missing cards lie shuffled over the walls, the working piles and the stock."""
    rnd = random.Random(seed)
    piles = {f"F{i + 1}": run(s) + " " + run(s, DOWN_FROM_KING[:13 - left])
             for i, s in enumerate("SHDC")}
    rest = [r + s for s in "SHDC" for r in DOWN_FROM_KING[13 - left:]]
    rnd.shuffle(rest)
    places = ["R1", "R2", "R3", "R4", "T1", "T2", "T3", "T4", "S", "S", "S"]
    spread: dict[str, list[str]] = {}
    for c in rest:
        spread.setdefault(rnd.choice(places), []).append(c)
    for wall, work in zip(("R1", "R2", "R3", "R4"), ("T1", "T2", "T3", "T4"), strict=True):
        if wall in spread and work not in spread:  # a working pile is refilled from its wall
            spread[work] = [spread[wall].pop()]
    piles.update({k: " ".join(v) for k, v in spread.items()})
    down = {k: len(v) - 1 for k, v in spread.items() if k.startswith("R") and v}
    down["S"] = len(spread.get("S", []))
    return arrange(new(), piles, down, redeals=-1 if cycle else rnd.choice((0, 1, 2)))


def canonical(g: games.Game) -> tuple:
    """The position as the rules see it, written independently of ``solver_key``: suits of
    the foundations with their sizes, each wall with its working pile (in any order), the
    talon in order and the passes left; cards without their deck."""
    def names(pile: int) -> tuple[int, ...]:
        return tuple(c % 52 for c in g.cards[pile])
    found = sorted((SUIT[g.cards[f][0]], len(g.cards[f])) if g.cards[f] else (-1, 0)
                   for f in g.foundations)
    units = sorted((names(r), names(t)) for r, t in zip(g.walls, g.tableau, strict=True))
    return (tuple(found), tuple(units), names(g.stock), names(g.waste), g.vars["redeals"])


def test_solver_key_merges_twins_and_wall_order_only():
    a = arrange(new(), {"F1": "KS QS", "R1": "5H 7C", "T1": "7D", "R2": "9S", "T2": "2C",
                        "S": "3H 3H", "W": "4D"}, {"R1": 1, "S": 2})
    # the walls swapped with their working piles, and the twins of 3H swapped
    b = arrange(new(), {"F3": "KS QS", "R2": "5H 7C", "T2": "7D", "R1": "9S", "T1": "2C",
                        "S": "3H 3H", "W": "4D"}, {"R2": 1, "S": 2})
    b.cards[b.stock].reverse()
    assert a.solver_key() == b.solver_key()
    for change in ({"T1": "7H"}, {"W": ""}, {"R1": "7C 5H"}):
        piles = {"F1": "KS QS", "R1": "5H 7C", "T1": "7D", "R2": "9S", "T2": "2C",
                 "S": "3H 3H", "W": "4D", **change}
        c = arrange(new(), piles, {"R1": 1, "S": 2})
        assert c.solver_key() != a.solver_key()
    d = arrange(new(), {"F1": "KS QS", "R1": "5H 7C", "T1": "7D", "R2": "9S", "T2": "2C",
                        "S": "3H 3H", "W": "4D"}, {"R1": 1, "S": 2}, redeals=0)
    assert d.solver_key() != a.solver_key()


def test_equal_solver_keys_mean_equal_positions_on_random_play():
    assert_keys_separate_positions(
        ((endgame(seed, 4), random.Random(seed)) for seed in range(1, 9)), canonical, 40)


def test_hopeless_never_fires_where_the_complete_search_wins():
    fired = checked = 0
    for seed in range(1, 40):
        g, rnd = endgame(seed, 3), random.Random(seed)
        for _ in range(rnd.randrange(0, 12)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))
        sol = solver.solve(g, prune=False, max_nodes=100_000)
        checked += sol.result != solver.UNKNOWN
        if g.solver_hopeless():
            fired += 1
            assert sol.result == solver.LOST, seed
        if sol.won:  # and never along the winning line
            line = g.clone()
            for m in sol.moves:
                assert not line.solver_hopeless()
                line.play(m, check=False)
    assert checked >= 30 and fired >= 1


def test_hopeless_on_a_working_pile_holding_a_second_run_card_over_a_higher_one():
    g = arrange(new(), {"F1": run("S") + " " + run("S", "KQJT9"), "T1": "6S 7S", "R1": "8S"})
    assert not g.solver_hopeless()  # 7 on 6 leaves in foundation order
    g = arrange(new(), {"F1": run("S") + " " + run("S", "KQJT9"), "T1": "7S 6S", "R1": "8S"})
    assert g.solver_hopeless()  # the 6 would have to go home before the 7
    assert solver.solve(g, prune=False).result == solver.LOST
    g = arrange(new(), {"F1": run("S", "KQJT9"), "T1": "7S 6S", "R1": "8S"})
    assert not g.solver_hopeless()  # in the first run the 6 may go home before its twin 7


def test_autoplay_sends_only_second_run_cards_home():
    g = arrange(new(), {"F1": run("S", "KQ"), "T1": "JS", "F2": run("H") + " KH", "W": "QH"})
    assert g.solver_autoplay() == Move("move", g.index["W"], g.index["F2"], 1)
    g.play("W>F2")
    assert g.solver_autoplay() is None  # the jack of spades is a first-run card


@pytest.mark.parametrize("cycle", [False, True])
def test_solver_wins_an_endgame_and_the_line_replays(cycle):
    won = 0
    for seed in range(1, 12):
        g = endgame(seed, 4, cycle)
        sol = solver.solve(g, max_nodes=200_000)
        assert sol.result != solver.UNKNOWN
        if sol.won:
            won += 1
            assert solver.replay_wins(g, sol.moves)
    assert won >= 2


# ------------------------------------------------ the tuned reading (unlimited passes, parking)
def test_defaults_are_unlimited_passes_and_any_card_on_a_working_pile():
    g = arrange(new(), {"S": "2C 3C", "T1": "6H", "R1": "2C"}, {"S": 2})
    assert g.opts == {"passes": 0, "working_build": "any"} and g.vars["redeals"] == -1
    for _ in range(5):  # the pack may be turned over again and again
        g.play("deal")
        g.play("deal")
        g.play("redeal")
    g.play("deal")
    g.play("W>T1")  # any card on any working pile, from the waste or a wall
    g.play("R1>T1")
    g.play("deal")
    refused(g, "W>T2", "An empty working pile cannot be filled")
    assert new(passes=1).vars["redeals"] == 0


def test_lost_with_unlimited_passes_when_no_card_can_be_played_anywhere():
    g = arrange(new(), {"F1": "KS", "W": "5C", "S": "9D"}, {"S": 1})
    assert g.legal_moves() and g.lost and g.over
    g = arrange(new(), {"F1": "KS", "W": "5C", "S": "9D QS"}, {"S": 2})
    assert not g.lost  # the queen of spades can be turned to
    g = arrange(new(), {"F1": "KS", "W": "5C", "S": "9D", "T1": "4H"}, {"S": 1})
    assert not g.lost  # a card may still be parked


def canonical_cycle(g: games.Game) -> tuple:
    """As :func:`canonical`, with the talon as a set of cards: with unlimited passes every
    talon card can be had at any time."""
    found, units, stock, waste, _ = canonical(g)
    return found, units, tuple(sorted(stock + waste))


def test_solver_key_with_unlimited_passes_keeps_only_the_talon_cards():
    piles = {"F1": "KS QS", "R1": "5H 7C", "T1": "7D", "S": "3H 4D", "W": "9C"}
    a = arrange(new(), piles, {"R1": 1, "S": 2})
    b = arrange(new(), {**piles, "S": "9C 3H", "W": "4D"}, {"R1": 1, "S": 2})
    assert a.solver_key() == b.solver_key()
    c = arrange(new(), {**piles, "S": "3H 4C"}, {"R1": 1, "S": 2})
    assert c.solver_key() != a.solver_key()
    assert_keys_separate_positions(
        ((endgame(seed, 4, cycle=True), random.Random(seed)) for seed in range(1, 9)),
        canonical_cycle, 40)


def test_autoplay_takes_a_talon_card_home_when_its_twin_is_home_or_in_the_talon():
    g = arrange(new(), {"F1": "KS QS", "S": "JS 4D JS", "T1": "5H"}, {"S": 3})
    move = g.solver_autoplay()
    assert type(move) is Compound and move.moves[-1] == Move("move", g.waste, g.index["F1"], 1)
    for m in move.moves:
        g.play(m)
    assert len(g.pile("F1")) == 3
    # one jack in the talon, its twin on a wall: which copy goes first is a choice
    g = arrange(new(), {"F1": "KS QS", "S": "JS 4D", "R1": "JS", "T1": "5H"}, {"S": 2})
    assert g.solver_autoplay() is None
    g = arrange(new(), {"F1": run("S") + " KS QS", "S": "JS 4D", "T1": "5H"}, {"S": 2})
    assert g.solver_autoplay() is not None  # a second-run card
    g = arrange(new(**OLD), {"F1": "KS QS", "S": "JS 4D JS", "T1": "5H"}, {"S": 3})
    assert g.solver_autoplay() is None  # three passes: the talon is no free pool


def test_pruned_pass_parks_the_card_needed_later_underneath():
    g = arrange(new(), {"F1": "KS", "F2": "KH", "T1": "5S", "T2": "JS", "R1": "4C QH",
                        "R2": "8S", "W": "3C"}, {"R1": 1})
    ix = g.index

    def park(s: str, d: str) -> Move:
        return Move("move", ix[s], ix[d], 1)
    full, pruned = g.solver_moves(), g.solver_moves(prune=True)
    assert park("R2", "T2") in full and park("R2", "T2") not in pruned  # 8S over the JS
    assert park("W", "T1") not in full + pruned  # talon cards stay (never worth parking)
    assert {park("R1", "T1"), park("R1", "T2"), park("R2", "T1")} <= set(pruned)
    assert full.index(park("R2", "T1")) < full.index(park("R2", "T2"))


@pytest.mark.parametrize("seed", [2, 11])
def test_solver_wins_a_default_deal_and_the_line_replays(seed):
    g = new(seed)
    sol = solver.solve(g, max_nodes=50_000)
    assert sol.won and solver.replay_wins(g, sol.moves)


def test_talon_autoplay_and_unlimited_pass_pruning_lose_no_win(monkeypatch):
    # late positions with unlimited passes: whatever the complete search wins without the
    # talon autoplay, it wins with it; and a deal it proves lost stays lost
    results = []
    for seed in range(1, 25):
        g = endgame(seed, 3, cycle=True)
        results.append(solver.solve(g, max_nodes=60_000).result)
    cls = type(new())
    monkeypatch.setattr(cls, "_pool_home", lambda self: None)
    decided = []
    for seed, with_auto in zip(range(1, 25), results, strict=True):
        g = endgame(seed, 3, cycle=True)
        plain = solver.solve(g, prune=False, max_nodes=60_000).result
        if solver.UNKNOWN not in (plain, with_auto):
            decided.append(plain)
            assert plain == with_auto, seed
    assert len(decided) >= 10 and {solver.WON, solver.LOST} <= set(decided), decided


# ------------------------------------------- the solver hooks against a plain search
def plain_children(g: games.Game) -> list:
    """Every card move, and every card move of each card the talon can be turned to (the
    turns made first, as one step): single turns change nothing :func:`canonical_cycle`
    sees. Written from :meth:`legal_moves` alone, none of the solver hooks."""
    out: list = [m for m in g.legal_moves() if m.kind == "move"]
    prefix: list[Move] = []
    for _ in range(len(g.cards[g.stock]) + len(g.cards[g.waste]) + 1):
        turn = next((m for m in g.legal_moves() if m.kind in ("deal", "redeal")), None)
        if turn is None:
            break
        g.make(turn)
        prefix.append(turn)
        out.extend(Compound((*prefix, m)) for m in g.legal_moves()
                   if m.kind == "move" and m.src == g.waste)
    for _ in prefix:
        g.unmake()
    return out


def plain_search(game: games.Game, limit: int) -> str | None:
    """Won or lost by a depth-first search over every move (unlimited passes), positions
    told apart by :func:`canonical_cycle`; None past ``limit`` positions."""
    return search_all(game, limit, key=canonical_cycle, children=plain_children)


def test_a_second_run_card_alone_on_its_working_pile_is_not_sent_home():
    # The 5S is the last card of its kind the spades want, alone on working pile 1 (its
    # wall empty). Sent home, the pile is gone for good, and the JD of wall 2 can then only
    # be parked on working pile 2, on the QD it must follow: lost. Kept, the JD parks on
    # the 5S, the KD, QD and JD go home, and the deal is won. A former autoplay rule sent it home and answered "lost".
    g = arrange(new(), {"F1": run("S") + " " + run("S", "KQJT9876"),
                        "F2": run("H") + " " + run("H"), "F3": run("C") + " " + run("C"),
                        "F4": run("D"), "T1": "5S", "R2": "KD JD",
                        "T2": run("D", "A23456789TQ"), "S": "4S 3S 2S AS"}, {"R2": 1, "S": 4})
    assert all_cards(g) == list(range(104))
    assert g.solver_autoplay() is None
    assert plain_search(g, 20_000) == solver.WON
    sent = g.clone()
    sent.play("T1>F1")
    assert plain_search(sent, 20_000) == solver.LOST
    sol = solver.solve(g)
    assert sol.won and solver.replay_wins(g, sol.moves)


def test_autoplay_sends_a_covering_working_card_home_when_its_twin_is_in_the_talon():
    g = arrange(new(), {"F1": "KS", "T1": "7H QS", "R1": "9C", "S": "QS 4D"}, {"S": 2})
    assert g.solver_autoplay() == Move("move", g.index["T1"], g.index["F1"], 1)
    g = arrange(new(), {"F1": "KS", "T1": "QS", "R1": "9C", "S": "QS 4D"}, {"S": 2})
    assert g.solver_autoplay() is None  # alone: its wall would refill the pile
    g = arrange(new(), {"F1": "KS", "T1": "7H QS", "R1": "QS", "S": "4D"}, {"S": 1})
    assert g.solver_autoplay() is None  # the twin on a wall: which copy goes first is a choice


def test_solver_agrees_with_a_plain_search_on_random_endgames():
    # every hook at once (autoplay, talon parks left out, key, dead-end test) against a
    # search over every legal move: the same answer wherever both decide
    decided = []
    for seed in range(1, 41):
        g, rnd = endgame(seed, 3, cycle=True), random.Random(seed)
        for _ in range(rnd.randrange(0, 8)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))
        plain = plain_search(g, 4_000)
        ours = solver.solve(g, max_nodes=100_000).result
        if plain is not None and ours != solver.UNKNOWN:
            decided.append(plain)
            assert ours == plain, seed
    assert len(decided) >= 25 and {solver.WON, solver.LOST} <= set(decided), decided



def test_the_any_card_building_rule_names_its_need_in_every_language():
    """With any card on any working pile, a refusal named what a card needs as a bare
    string, and rendering "The 7♦ can only go on {target:a}." raised ValueError."""
    from games.engine.reason import Card, Reason
    from games.families.patience import ONLY_ON
    from games.napoleons_tomb import AnyCard
    from kiosk.i18n import Translator

    reason = Reason(ONLY_ON, card=Card(parse("7D")), target=AnyCard().need(parse("7D")))
    assert str(reason) == "The 7♦ can only go on any card."
    for lang in ("zh", "ru"):
        text = Translator(lang).reason(reason)
        assert "any card" not in text and "7" in text
