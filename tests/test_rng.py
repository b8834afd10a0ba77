"""The deal generator must never change: these outputs are pinned forever."""

import pytest

from games.engine.rng import Rng, check_seed


def test_known_outputs_are_pinned():
    r = Rng(4711)
    assert [r.next64() for _ in range(3)] == PINNED


def test_shuffle_is_a_permutation_and_pinned():
    deck = list(range(52))
    Rng(7).shuffle(deck)
    assert sorted(deck) == list(range(52))
    assert deck[:8] == PINNED_SHUFFLE


def test_below_is_in_range_and_roughly_uniform():
    r = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(800 < c < 1200 for c in counts)


@pytest.mark.parametrize("bad", [0, -3, 1.5, "7", True, 2**63])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(ValueError):
        check_seed(bad)


PINNED = [6015372129953349363, 13152855670552024129, 6011397148061656942]
PINNED_SHUFFLE = [14, 30, 29, 32, 21, 16, 11, 9]
