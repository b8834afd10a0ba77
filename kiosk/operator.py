"""The operator's side of the kiosk, without Kivy: the PIN guard, exit codes, system commands.

* :class:`PinGuard` checks the operator PIN: a wrong PIN gives no hint (not even how many
  digits are right), and after :data:`MAX_TRIES` wrong tries in a row the keypad is locked
  for :data:`LOCK_SECONDS`.
* The app ends with :data:`EXIT_RESTART` when the operator restarts it (the unit's
  ``Restart=always`` starts it again) and with :data:`EXIT_MAINTENANCE` for the maintenance
  console (the unit must *not* restart it: ``RestartPreventExitStatus=`` and
  ``SuccessExitStatus=`` name it). See ``docs/operations.md`` "Operator menu".
* :class:`SystemCommands` reboots or powers off through ``systemctl`` as the kiosk user
  (the image's polkit rule allows exactly that), run by a replaceable command runner so the
  tests never reboot anything.
"""

from __future__ import annotations

import hmac
import logging
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

log = logging.getLogger("kiosk.operator")

#: the app asks to be started again (Restart=always does it)
EXIT_RESTART = 75
#: the operator left for the maintenance console: the unit must not restart the kiosk
EXIT_MAINTENANCE = 76

MAX_TRIES = 5
LOCK_SECONDS = 60.0
HOLD_SECONDS = 5.0
REBOOT = ("systemctl", "reboot")
POWEROFF = ("systemctl", "poweroff")


class PinGuard:
    """Checks PINs; locks after ``max_tries`` wrong ones in a row for ``lock_seconds``.

    >>> t = [0.0]
    >>> g = PinGuard("2580", clock=lambda: t[0])
    >>> [g.check("0000") for _ in range(5)], g.locked(), g.check("2580")
    (['wrong', 'wrong', 'wrong', 'wrong', 'locked'], True, 'locked')
    >>> t[0] = 61.0; g.check("2580")
    'ok'
    """

    def __init__(self, pin: str, *, max_tries: int = MAX_TRIES,
                 lock_seconds: float = LOCK_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = str(pin)
        self.max_tries = max_tries
        self.lock_seconds = lock_seconds
        self.clock = clock
        self.failures = 0
        self._locked_until = 0.0

    def locked(self) -> bool:
        return self.clock() < self._locked_until

    def seconds_left(self) -> int:
        """Whole seconds until the keypad opens again (0 when it is open)."""
        left = self._locked_until - self.clock()
        return max(0, int(left + 0.999))

    def check(self, entered: str) -> str:
        """``"ok"``, ``"wrong"``, or ``"locked"`` (too many tries: this one and the next
        ones until the lock ends are refused, right or wrong)."""
        if self.locked():
            return "locked"
        if hmac.compare_digest(entered.encode(), self.pin.encode()):
            self.failures = 0
            return "ok"
        self.failures += 1
        log.warning("operator menu: wrong PIN (%d in a row)", self.failures)
        if self.failures >= self.max_tries:
            self.failures = 0
            self._locked_until = self.clock() + self.lock_seconds
            log.warning("operator menu: locked for %g s after %d wrong PINs",
                        self.lock_seconds, self.max_tries)
            return "locked"
        return "wrong"


@dataclass
class CommandResult:
    ok: bool
    message: str = ""


Runner = Callable[[Sequence[str]], CommandResult]


def run_command(argv: Sequence[str], timeout: float = 20.0) -> CommandResult:
    """Run a system command; never raises. ``message`` is its error output, if it failed."""
    try:
        proc = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        return CommandResult(False, f"{argv[0]} is not installed")
    except (OSError, subprocess.SubprocessError) as err:
        return CommandResult(False, str(err))
    if proc.returncode != 0:
        text = (proc.stderr or proc.stdout or "").strip().splitlines()
        return CommandResult(False, text[-1] if text else f"exit status {proc.returncode}")
    return CommandResult(True)


class SystemCommands:
    """Restart, maintenance, reboot, power off: what the operator menu's System page does.

    ``runner`` runs a command (default :func:`run_command`); ``exit_app(code)`` stops the
    app with an exit status. Reboot and power off run in a thread (``systemctl`` waits for
    logind) and report to ``done(result)``; the caller brings that back to the UI thread.
    """

    def __init__(self, exit_app: Callable[[int], None], runner: Runner | None = None) -> None:
        self.exit_app = exit_app
        self.runner: Runner = runner or run_command
        self.history: list[tuple[str, ...]] = []

    def restart_app(self) -> None:
        log.warning("operator menu: restarting the app (exit %d)", EXIT_RESTART)
        self.exit_app(EXIT_RESTART)

    def maintenance(self) -> None:
        log.warning("operator menu: leaving for the maintenance console (exit %d)",
                    EXIT_MAINTENANCE)
        self.exit_app(EXIT_MAINTENANCE)

    def reboot(self, done: Callable[[CommandResult], None] | None = None,
               background: bool = True) -> None:
        self._system(REBOOT, done, background)

    def poweroff(self, done: Callable[[CommandResult], None] | None = None,
                 background: bool = True) -> None:
        self._system(POWEROFF, done, background)

    def _system(self, argv: Sequence[str], done: Callable[[CommandResult], None] | None,
                background: bool) -> None:
        log.warning("operator menu: %s", " ".join(argv))
        self.history.append(tuple(argv))

        def work() -> None:
            try:
                result = self.runner(argv)
            except Exception as err:  # noqa: BLE001 - a runner bug must not reach the UI
                result = CommandResult(False, str(err))
            if not result.ok:
                log.error("%s failed: %s", " ".join(argv), result.message)
            if done is not None:
                done(result)

        if background:
            threading.Thread(target=work, name="kiosk-system", daemon=True).start()
        else:
            work()
