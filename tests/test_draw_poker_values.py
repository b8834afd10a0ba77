"""The cached poker values agree with the slow evaluator of games/families/poker.py."""

from __future__ import annotations

import random

from games.engine import cards as C
from games.families.poker import FIVE_OF_A_KIND, ONE_PAIR, THREE_OF_A_KIND, evaluate
from games.families.poker_table import WILD_RULES, hand_value, wild_test

DECK = list(range(52)) + [C.JOKER]


def test_cached_values_match_the_evaluator_on_many_hands_under_every_wild_rule():
    rnd = random.Random(14)
    for rule in WILD_RULES:
        wild = wild_test(rule)
        for _ in range(400):
            hand = rnd.sample(DECK, 5)
            assert hand_value(hand, rule) == evaluate(hand, wild, bug=rule == "bug"), \
                (rule, [C.text(c) for c in hand])


def test_the_wild_rules_differ_as_the_source_says():
    def v(text: str, rule: str) -> tuple[int, ...]:
        return hand_value([C.parse(t) for t in text.split()], rule)

    assert v("JK AS AD 5C 7D", "bug")[0] == THREE_OF_A_KIND   # the bug is an ace
    assert v("JK KS KD 5C 7D", "bug")[:2] == (ONE_PAIR, 13)   # ...not a king
    assert v("JK KS KD 5C 7D", "joker")[0] == THREE_OF_A_KIND
    assert v("2C 2D KS KH KC", "deuces")[0] == FIVE_OF_A_KIND
    assert v("2C 2D KS KH KC", "joker")[0] != FIVE_OF_A_KIND
    assert v("KD JH QS QC QH", "one_eyed")[0] == FIVE_OF_A_KIND
    assert v("KS JC QS QC QH", "one_eyed")[0] != FIVE_OF_A_KIND
