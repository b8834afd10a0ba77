"""Malformed moves: whatever a saved game, a replay file or a bug in a UI hands ``play()``, a
game either plays it (when it is one of its legal moves) or refuses it with IllegalMove and
leaves the position as it was. An IndexError from a bad pile or count would be a traceback in
``kiosk replay`` and a dead table in the lobby.

Every registered game is tried with every combination of the option values it declares (the
options' ``choices``, and both values of a flag), from the deal and from positions reached by
random play, with move texts of every shape the notation has: each kind any game uses and
made-up ones, wrong and missing pile ids, negative, zero and huge counts, extra fields, card
codes where piles belong, and plain garbage.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import IllegalMove, Move

from .conftest import play_randomly, refused

#: every move kind of the catalog and a few no game has
KINDS = ("move", "deal", "redeal", "remove", "jump", "fill", "close_up", "refill",
         "close_up_refill", "place", "slide", "swap", "choose", "draw", "finish", "joker",
         "rescue", "turn", "resign", "flip", "x", "_", "Deal", "MOVE")
#: counts a field may carry: the usual ones and nonsense
COUNTS = ("-1", "-5", "0", "1", "2", "3", "13", "52", "104", "999", "10" * 12, "٣", "²", "1.5",
          "1e3", "+2", " 2", "0x1")
#: texts of no shape at all
GARBAGE = ("", " ", ">", ">>", "x", ":", ",", "::", "T1>", ">T1", "T1>T2x", "T1>T2xx2",
           "T1>T2>T3", "T1>T2x1x1", "deal:", "deal:,", "deal::", "deal:,,", "remove:T1,,T2",
           "remove:,T1", "AS", "KH>F1", "AS>KH", "T1 > T2", "t1>t2", "T1>T2x-0", "\x00",
           "deal\n", "☃", "дело:T1", "移动:T1,T2", "move:", "move:T1", "move:T1,T2,3",
           "move:T1,T2,T3", "G1>G2", "S>W", "W>S", "D>S", "S>D", "F1>F1", "T1>T1",
           "1>2", "0>1", "-1>0", "remove:1,2", "remove:-1", "deal:-1", "deal:0", "deal:2",
           "deal:S", "redeal:2", "redeal:S,W", "x" * 500, "T1>" + "T2" * 200, "deal:" + "1" * 400)

OPTION_SETS = {gid: tuple(dict(zip([o.name for o in games.game_class(gid).options], combo,
                                   strict=True))
                          for combo in itertools.product(*[
                              o.choices or ((False, True) if isinstance(o.default, bool)
                                            else (o.default,))
                              for o in games.game_class(gid).options]))
               for gid in games.ids()}
CASES = [(gid, opts) for gid in games.ids() for opts in OPTION_SETS[gid]]


def _case_id(case: tuple[str, dict[str, Any]]) -> str:
    gid, opts = case
    return gid + "".join(f"-{k}={v}" for k, v in opts.items())


def plays_or_refuses(game: games.Game, move: Any) -> bool:
    """Play ``move``: True when it was legal (it is then taken back), False when it was
    refused with IllegalMove and nothing changed. Anything else fails the test."""
    before, made = game.key(), len(game.history)
    legal = game.legal_moves()
    try:
        game.play(move)
    except IllegalMove as err:
        assert str(err).strip(), f"{game.info.id}: empty reason for {move!r}"
        assert game.key() == before and len(game.history) == made, \
            f"{game.info.id}: refusing {move!r} changed the position"
        parsed = move
        if isinstance(move, str):
            try:
                parsed = game.parse_move(move)
            except IllegalMove:
                return False
        assert parsed not in legal, f"{game.info.id}: legal move {move!r} refused: {err}"
        return False
    assert game.history[-1] in legal, f"{game.info.id}: {move!r} played but is not legal"
    game.undo()
    assert game.key() == before
    return True


def malformed_texts(game: games.Game, rnd: random.Random, many: int) -> list[str]:
    """Move texts built from this game's piles and the notation's shapes, most of them wrong
    (``many`` random ones, a share of :data:`GARBAGE` and variations of legal moves)."""
    ids = [p.id for p in game.layout] + ["T99", "F0", "G0", "X", "AS", "10H", "-1", "0", ""]
    kinds = list(KINDS) + sorted({m.kind for m in game.legal_moves()})
    texts = rnd.sample(GARBAGE, min(many, len(GARBAGE)))
    for m in rnd.sample(game.legal_moves(), min(4, len(game.legal_moves()))):
        good = game.notation(m)
        texts += [good, good + "x2", good + "x0", good + "x-1", good + ",1", good + ",0",
                  good + ",T1", good + ",S", good + ":S", good.replace(">", ">>"),
                  good[:-1], good + "x" + "9" * 30]
        if m.kind == "move":
            src, dst = good.split("x")[0].split(">")
            texts += [f"{dst}>{src}", f"{src}>{dst}x{len(game.cards[m.src]) + 1}",
                      f"move:{src},{dst}", f"remove:{src},{dst}", f"{src}>{src}"]
        else:
            texts += [f"{m.kind}:{','.join(ids[i] for i in (m.dst, m.src) if i >= 0)}",
                      f"{m.kind}:{ids[0]},{ids[-10]},{ids[1]}", f"{m.kind}:{COUNTS[1]}"]
    for _ in range(many):
        shape = rnd.randrange(4)
        if shape == 0:
            text = f"{rnd.choice(ids)}>{rnd.choice(ids)}"
            if rnd.random() < 0.5:
                text += "x" + rnd.choice(COUNTS)
        elif shape == 1:
            fields = [rnd.choice(ids) for _ in range(rnd.randrange(5))]
            if rnd.random() < 0.5:
                fields.append(rnd.choice(COUNTS))
            text = rnd.choice(kinds) + (":" + ",".join(fields) if fields or rnd.random() < 0.3
                                        else "")
        elif shape == 2:
            text = rnd.choice(kinds)
        else:
            text = "".join(rnd.choice("TFSWDGRCH0123456789>:,x- ") for _ in range(rnd.randrange(9)))
        texts.append(text)
    return texts


def malformed_moves(game: games.Game, rnd: random.Random, many: int) -> list[Move]:
    """Move values that a UI or a solver bug could build: piles and counts out of range."""
    n = len(game.layout)
    piles = (-2, -1, 0, 1, n - 1, n, n + 5, 10**9, -(10**9))
    counts = (-(10**9), -1, 0, 1, 2, 52, 10**9)
    kinds = list(KINDS) + sorted({m.kind for m in game.legal_moves()})
    return [Move(rnd.choice(kinds), rnd.choice(piles), rnd.choice(piles), rnd.choice(counts),
                 tuple(rnd.choice(piles) for _ in range(rnd.randrange(3))))
            for _ in range(many)]


def test_happy_couples_deal_with_a_count_is_refused():
    g = games.new("happy_couples", 1)
    refused(g, "deal:2")
    assert not g.history


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_every_malformed_move_is_refused_or_legal(case):
    gid, opts = case
    rnd = random.Random(_case_id(case))
    g = games.new(gid, rnd.randrange(1, 10**6), **opts)
    for steps in (0, 40):
        play_randomly(g, steps, rnd)
        for text in malformed_texts(g, rnd, 25):
            plays_or_refuses(g, text)
        for move in malformed_moves(g, rnd, 10):
            plays_or_refuses(g, move)
        for odd in (None, 5, b"T1>F1", ("move", 0, 1), Move("move", "T1", "F1"),
                    Move("remove", 0, "T1"), Move("remove", 1, 0, 1.5), Move(None, 0, 1),
                    Move("remove", 0, 1, 1, [2])):
            plays_or_refuses(g, odd)


def _move_text(ids: list[str]):
    pile = st.one_of(st.sampled_from(ids), st.text(max_size=4))
    count = st.one_of(st.sampled_from(COUNTS), st.integers().map(str))
    return st.one_of(
        st.builds(lambda a, b: f"{a}>{b}", pile, pile),
        st.builds(lambda a, b, k: f"{a}>{b}x{k}", pile, pile, count),
        st.builds(lambda k, fs: k + ":" + ",".join(fs), st.sampled_from(KINDS),
                  st.lists(st.one_of(pile, count), max_size=5)),
        st.sampled_from(KINDS),
        st.sampled_from(GARBAGE),
        st.text(max_size=20),
    )


def _fuzz_property(data, gid: str) -> None:
    opts = data.draw(st.sampled_from(OPTION_SETS[gid]), label="options")
    g = games.new(gid, data.draw(st.integers(1, 10**9), label="seed"), **opts)
    play_randomly(g, data.draw(st.integers(0, 120), label="steps"),
                  random.Random(data.draw(st.integers(0, 2**32), label="play")))
    ids = [p.id for p in g.layout]
    for text in data.draw(st.lists(_move_text(ids), min_size=1, max_size=12), label="moves"):
        plays_or_refuses(g, text)


@pytest.mark.parametrize("gid", games.ids())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_move_texts_are_refused_or_legal(gid, data):
    _fuzz_property(data, gid)


@pytest.mark.slow
@pytest.mark.parametrize("gid", games.ids())
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_move_texts_are_refused_or_legal_at_length(gid, data):
    _fuzz_property(data, gid)
