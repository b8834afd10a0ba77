"""kiosk.settings.operator: the PIN guard (its growing, persistent lock-out and its events), the exit
codes and the system command runner."""

from __future__ import annotations

import json
import sys

from kiosk.records.playlog import PlayLog, read_events
from kiosk.settings.operator import (
    EXIT_MAINTENANCE,
    EXIT_RESTART,
    FORGET_SECONDS,
    LOCK_FILE,
    MAX_LOCK_SECONDS,
    POWEROFF,
    REBOOT,
    CommandResult,
    PinGuard,
    SystemCommands,
    guard_for,
    run_command,
)
from kiosk.settings.operator_pin import hash_pin

#: a cheap hash (scrypt N=16), so that the tests can try many PINs quickly
PIN = "4711"
HASH = hash_pin(PIN, n=16)


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


def wrong(guard: PinGuard, n: int = 5) -> list[str]:
    return [guard.check("0000") for _ in range(n)]


def test_right_pin_opens_wrong_pin_gives_no_hint():
    g = PinGuard(HASH, clock=Clock())
    assert g.check(PIN) == "ok"
    # a prefix, a longer PIN, digits in another order, junk: all just "wrong"
    assert {g.check(p) for p in ("471", "47110", "1174", "")} == {"wrong"}
    assert g.check(PIN) == "ok"
    assert {g.check(p) for p in ("4711\n", " 4711", "٤٧١١", "scrypt$")} == {"wrong"}


def test_five_wrong_pins_lock_for_a_minute_even_the_right_one():
    clock = Clock()
    g = PinGuard(HASH, clock=clock)
    assert wrong(g) == ["wrong"] * 4 + ["locked"]
    assert g.locked() and g.seconds_left() == 60
    assert g.check(PIN) == "locked"
    clock.t += 59.5
    assert g.check(PIN) == "locked" and g.seconds_left() == 1
    clock.t += 0.6
    assert not g.locked() and g.check(PIN) == "ok"


def test_a_right_pin_resets_the_count():
    g = PinGuard(HASH, clock=Clock())
    wrong(g, 4)
    assert g.check(PIN) == "ok"
    assert wrong(g, 4) == ["wrong"] * 4 and not g.locked()


def test_each_lock_out_lasts_twice_as_long_up_to_a_day():
    clock = Clock()
    g = PinGuard(HASH, clock=clock)
    lengths = []
    for _ in range(14):
        assert wrong(g)[-1] == "locked"
        lengths.append(g.seconds_left())
        clock.t += g.seconds_left()
    assert lengths[:5] == [60, 120, 240, 480, 960]
    assert lengths[-1] == MAX_LOCK_SECONDS and max(lengths) == MAX_LOCK_SECONDS
    # at 5 tries a lock-out, 10 000 PINs now take years, not the 17 hours of a fixed minute
    assert sum(lengths) > 4 * 24 * 3600
    # the right PIN ends the series: the next lock-out is a minute again
    assert g.check(PIN) == "ok"
    wrong(g)
    assert g.seconds_left() == 60


def test_a_quiet_day_ends_the_series_but_a_clock_set_back_does_not():
    clock = Clock()
    g = PinGuard(HASH, clock=clock)
    wrong(g)
    clock.t += 60
    wrong(g, 3)
    clock.t -= 3600  # the wall clock went back (a Pi without a clock, before NTP)
    assert wrong(g, 2)[-1] == "locked" and g.seconds_left() == 120  # the count was kept
    clock.t += 120 + FORGET_SECONDS + 1
    wrong(g)
    assert g.seconds_left() == 60


def test_the_lock_out_and_the_count_survive_a_restart(tmp_path):
    clock = Clock()
    state = tmp_path / LOCK_FILE
    g = PinGuard(HASH, clock=clock, state_path=state)
    wrong(g)
    clock.t += 60
    wrong(g, 5)
    assert g.seconds_left() == 120
    clock.t += 30  # the plug is pulled half-way through the lock-out
    again = PinGuard(HASH, clock=clock, state_path=state)
    assert again.locked() and again.seconds_left() == 90
    assert again.check(PIN) == "locked"
    clock.t += 90
    wrong(again, 4)  # 4 wrong tries, then a restart does not wipe them
    third = PinGuard(HASH, clock=clock, state_path=state)
    assert third.check("0000") == "locked" and third.seconds_left() == 240


def test_a_clock_set_back_across_a_restart_cannot_stretch_the_lock(tmp_path):
    clock = Clock()
    state = tmp_path / LOCK_FILE
    wrong(PinGuard(HASH, clock=clock, state_path=state))
    clock.t -= 7 * 24 * 3600  # fake-hwclock restored an old time
    again = PinGuard(HASH, clock=clock, state_path=state)
    assert again.locked() and again.seconds_left() == 60


def test_a_damaged_lock_file_is_a_clean_start_not_a_crash(tmp_path):
    state = tmp_path / LOCK_FILE
    for junk in ("{", '{"failures": "x"}', "[" * 2000, '{"locked_until": NaN}'):
        state.write_text(junk)
        g = PinGuard(HASH, clock=Clock(), state_path=state)
        assert not g.locked() and g.check(PIN) == "ok"


def test_wrong_pins_and_lock_outs_are_events_of_the_play_log(tmp_path, clock):
    log = PlayLog(tmp_path / "plays.db", kiosk="t", app_version="9", clock=clock, min_free_mb=0)
    g = PinGuard(HASH, clock=Clock(), record=log.event)
    wrong(g)
    log.close()
    events = read_events(tmp_path / "plays.db", "pin_")
    assert [e["kind"] for e in events] == ["pin_wrong"] * 5 + ["pin_lockout"]
    assert json.loads(events[-1]["detail"]) == {"lockout": 1, "seconds": 60.0}
    assert json.loads(events[3]["detail"]) == {"in_a_row": 4}
    assert events[0]["at"] == "2025-03-01T12:00:00.000Z" and events[0]["clock_synced"]


def test_a_failing_recorder_does_not_stop_the_keypad():
    def broken(kind, detail):
        raise RuntimeError("disk gone")

    g = PinGuard(HASH, clock=Clock(), record=broken)
    assert g.check("0000") == "wrong" and g.check(PIN) == "ok"


def test_the_kiosk_guard_takes_a_new_pin_and_an_unlock_without_a_restart(tmp_path):
    from kiosk.settings.operator import LockState
    from kiosk.settings.operator_pin import PinStore

    g = guard_for(None, tmp_path)
    plain = PinStore(tmp_path).read().plain
    assert plain and g.matches(plain)
    wrong(g)
    assert g.locked()
    LockState().save(tmp_path / LOCK_FILE)  # what `kiosk operator pin --unlock` does
    assert not g.locked()
    PinStore(tmp_path).set("13579")
    assert g.check("13579") == "ok" and not g.matches(plain)


def test_exit_codes_are_distinct_and_not_the_cli_ones():
    assert len({EXIT_RESTART, EXIT_MAINTENANCE, 0, 1, 2}) == 5


def test_system_commands_use_the_runner_and_the_exit_function():
    calls: list[tuple[str, ...]] = []
    exits: list[int] = []
    results: list[CommandResult] = []

    def runner(argv):
        calls.append(tuple(argv))
        return CommandResult(argv[1] == "reboot", "" if argv[1] == "reboot" else "denied")

    sc = SystemCommands(exits.append, runner)
    sc.reboot(results.append, background=False)
    sc.poweroff(results.append, background=False)
    sc.restart_app()
    sc.maintenance()
    assert calls == [REBOOT, POWEROFF] == [("systemctl", "reboot"), ("systemctl", "poweroff")]
    assert [r.ok for r in results] == [True, False] and results[1].message == "denied"
    assert exits == [EXIT_RESTART, EXIT_MAINTENANCE]


def test_a_failing_runner_is_reported_not_raised():
    results: list[CommandResult] = []

    def broken(_argv):
        raise RuntimeError("no dbus")

    SystemCommands(lambda code: None, broken).reboot(results.append, background=False)
    assert results == [CommandResult(False, "no dbus")]


def test_run_command_reports_errors_as_sentences():
    assert run_command([sys.executable, "-c", "pass"]).ok
    r = run_command([sys.executable, "-c", "import sys; print('Access denied', "
                     "file=sys.stderr); sys.exit(1)"])
    assert not r.ok and r.message == "Access denied"
    missing = run_command(["/nonexistent/systemctl", "reboot"])
    assert not missing.ok and "not installed" in missing.message
