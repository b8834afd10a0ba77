"""kiosk.solving.dealcycle: "winnable deals only" deals every deal of a list once before any comes
again, never the same deal twice in a row, and carries on after a restart."""

from __future__ import annotations

import random

from kiosk.solving.dealcycle import STATE_FILE, DealCycle


def test_a_cycle_deals_every_deal_once_then_starts_a_new_order(tmp_path):
    seeds = list(range(1, 21))
    cycle = DealCycle("golf", seeds, tmp_path, rnd=random.Random(1))
    first = [cycle.next() for _ in seeds]
    second = [cycle.next() for _ in seeds]
    assert sorted(first) == seeds and sorted(second) == seeds
    assert first != second and first != seeds  # shuffled, and shuffled anew


def test_never_the_same_deal_twice_in_a_row_even_across_cycles():
    for salt in range(200):
        cycle = DealCycle("golf", [4, 8], None, rnd=random.Random(salt))
        dealt = [cycle.next() for _ in range(8)]
        assert all(a != b for a, b in zip(dealt, dealt[1:], strict=False)), dealt


def test_a_restart_carries_on_with_the_same_cycle(tmp_path):
    seeds = list(range(100, 130))
    one = DealCycle("the_fan", seeds, tmp_path, rnd=random.Random(7))
    before = [one.next() for _ in range(10)]
    again = DealCycle("the_fan", seeds, tmp_path, rnd=random.Random(99))  # a new process
    after = [again.next() for _ in range(20)]
    assert sorted(before + after) == seeds
    other = DealCycle("golf", [1, 2, 3], tmp_path)  # lists share the file, not the cycle
    other.next()
    assert DealCycle("the_fan", seeds, tmp_path).state == again.state


def test_a_grown_list_or_a_broken_state_file_starts_a_new_cycle(tmp_path, caplog):
    cycle = DealCycle("golf", [1, 2, 3], tmp_path, rnd=random.Random(2))
    last = [cycle.next() for _ in range(2)][-1]
    grown = DealCycle("golf", [1, 2, 3, 4, 5], tmp_path, rnd=random.Random(3))
    dealt = [grown.next() for _ in range(5)]
    assert sorted(dealt) == [1, 2, 3, 4, 5] and dealt[0] != last
    (tmp_path / STATE_FILE).write_text("{oops", encoding="utf-8")
    assert DealCycle("golf", [1, 2, 3], tmp_path).next() in (1, 2, 3)
    assert "cannot be read" in caplog.text
