"""kiosk.operator: the PIN guard, the exit codes and the system command runner."""

from __future__ import annotations

import sys

from kiosk.operator import (
    EXIT_MAINTENANCE,
    EXIT_RESTART,
    POWEROFF,
    REBOOT,
    CommandResult,
    PinGuard,
    SystemCommands,
    run_command,
)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_right_pin_opens_wrong_pin_gives_no_hint():
    g = PinGuard("2580", clock=Clock())
    assert g.check("2580") == "ok"
    # a prefix, a longer PIN, digits in another order: all just "wrong"
    assert {g.check(p) for p in ("258", "25800", "0852", "")} == {"wrong"}


def test_five_wrong_pins_lock_for_a_minute_even_the_right_one():
    clock = Clock()
    g = PinGuard("2580", clock=clock)
    assert [g.check("1111") for _ in range(5)] == ["wrong"] * 4 + ["locked"]
    assert g.locked() and g.seconds_left() == 60
    assert g.check("2580") == "locked"
    clock.t += 59.5
    assert g.check("2580") == "locked" and g.seconds_left() == 1
    clock.t += 0.6
    assert not g.locked() and g.check("2580") == "ok"


def test_a_right_pin_resets_the_count():
    g = PinGuard("2580", clock=Clock())
    for _ in range(4):
        g.check("0000")
    assert g.check("2580") == "ok"
    assert [g.check("0000") for _ in range(4)] == ["wrong"] * 4 and not g.locked()


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
