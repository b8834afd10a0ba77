"""The operator's side of the kiosk, without Kivy: the PIN guard, exit codes, system commands.

* :class:`PinGuard` checks the operator PIN against its hash (:mod:`kiosk.settings.operator_pin`): a
  wrong PIN gives no hint (not even how many digits are right). After :data:`MAX_TRIES`
  wrong tries in a row the keypad is locked, for :data:`LOCK_SECONDS` the first time and
  twice as long at each lock-out after that (up to :data:`MAX_LOCK_SECONDS`), so that
  trying every 4-digit PIN at the screen takes years instead of the 17 hours that a fixed
  minute allowed. The count survives a restart or a pulled plug (:data:`LOCK_FILE` in the
  data directory): otherwise power-cycling the kiosk would reset it. The right PIN, or
  :data:`FORGET_SECONDS` without a wrong one, starts the series again. Every wrong try,
  lock-out and opening is handed to ``record`` (the play log's events).
* The app ends with :data:`EXIT_RESTART` when the operator restarts it (the unit's
  ``Restart=always`` starts it again) and with :data:`EXIT_MAINTENANCE` for the maintenance
  console (the unit must *not* restart it: ``RestartPreventExitStatus=`` and
  ``SuccessExitStatus=`` name it). See ``docs/operations.md`` "Operator menu".
* :class:`SystemCommands` reboots or powers off through ``systemctl`` as the kiosk user
  (the image's polkit rule allows exactly that), run by a replaceable command runner so the
  tests never reboot anything.
"""

from __future__ import annotations

import json
import logging
import math
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kiosk.settings.operator_pin import hash_pin, is_hash, looks_like_hash, verify, write_private

log = logging.getLogger("kiosk.operator")

#: the app asks to be started again (Restart=always does it)
EXIT_RESTART = 75
#: the operator left for the maintenance console: the unit must not restart the kiosk
EXIT_MAINTENANCE = 76

MAX_TRIES = 5
#: the first lock-out; each further one in a series lasts twice as long
LOCK_SECONDS = 60.0
MAX_LOCK_SECONDS = 24 * 3600.0
#: a day without a wrong PIN ends the series (an operator's typo months later costs 60 s)
FORGET_SECONDS = 24 * 3600.0
LOCK_FILE = "operator-lockout.json"
HOLD_SECONDS = 5.0
REBOOT = ("systemctl", "reboot")
POWEROFF = ("systemctl", "poweroff")

Recorder = Callable[[str, dict[str, Any]], None]


@dataclass
class LockState:
    """What the keypad remembers across restarts (wall-clock seconds, see :class:`PinGuard`)."""

    #: wrong tries in a row since the last lock-out or the right PIN
    failures: int = 0
    #: lock-outs in this series
    lockouts: int = 0
    locked_until: float = 0.0
    #: length of the current lock-out (a clock that jumped back cannot make it longer)
    lock_seconds: float = 0.0
    last_wrong: float = 0.0

    @classmethod
    def load(cls, path: Path | None) -> LockState:
        """The saved state; a missing or damaged file is a clean state (logged)."""
        if path is None:
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            state = cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})
            numbers = (state.failures, state.lockouts, state.locked_until,
                       state.lock_seconds, state.last_wrong)
            if not all(isinstance(v, int | float) and not isinstance(v, bool)
                       and math.isfinite(v) and v >= 0 for v in numbers):
                raise ValueError("not numbers")
            state.failures, state.lockouts = int(state.failures), int(state.lockouts)
            return state
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, TypeError, RecursionError) as err:
            log.error("%s cannot be read (%s); the PIN lock-out starts again", path, err)
            return cls()

    def save(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            write_private(path, json.dumps(asdict(self)) + "\n", mode=0o644)
        except OSError as err:
            log.error("cannot save the PIN lock-out in %s: %s", path, err)


class PinGuard:
    """Checks PINs; after ``max_tries`` wrong ones in a row, locks the keypad for
    ``lock_seconds``, doubled at each further lock-out of the series.

    ``secret`` is a PIN hash (or digits, hashed here); ``secret_path``, a PIN file
    (:class:`kiosk.settings.operator_pin.PinStore`) read again when it changes, so that ``kiosk
    operator pin --set`` works without a restart; ``state_path`` keeps the count across
    restarts (None: in memory only), also read again when it changes (``--unlock``);
    ``clock`` is wall-clock seconds, since a restart resets the monotonic clock;
    ``record(kind, detail)`` receives ``pin_wrong``, ``pin_lockout`` and ``pin_ok``.

    >>> t = [0.0]
    >>> g = PinGuard(hash_pin("4711", n=16), clock=lambda: t[0])
    >>> [g.check("0000") for _ in range(5)], g.locked(), g.check("4711")
    (['wrong', 'wrong', 'wrong', 'wrong', 'locked'], True, 'locked')
    >>> t[0] = 61.0; [g.check("0000") for _ in range(5)][-1], g.seconds_left()
    ('locked', 120)
    >>> t[0] = 182.0; g.check("4711")
    'ok'
    """

    def __init__(self, secret: str, *, max_tries: int = MAX_TRIES,
                 lock_seconds: float = LOCK_SECONDS,
                 max_lock_seconds: float = MAX_LOCK_SECONDS,
                 clock: Callable[[], float] = time.time, state_path: Path | None = None,
                 record: Recorder | None = None, secret_path: Path | None = None) -> None:
        # a hash the keypad cannot verify stays a hash: no PIN opens it (verify says so and
        # logs why), and nothing raises in the keypad's submit
        self._hash = secret if is_hash(secret) or looks_like_hash(secret) \
            else hash_pin(str(secret))
        self.secret_path = secret_path
        self._secret_stamp = _stamp(secret_path)
        self.max_tries = max_tries
        self.lock_seconds = lock_seconds
        self.max_lock_seconds = max_lock_seconds
        self.clock = clock
        self.state_path = state_path
        self.record = record
        self.state = LockState.load(state_path)
        self._state_stamp = _stamp(state_path)

    @property
    def failures(self) -> int:
        return self.state.failures

    def matches(self, entered: str) -> bool:
        """Whether ``entered`` is the PIN, without counting it as a try (tests, the CLI)."""
        self._sync()
        return verify(entered, self._hash)

    def _sync(self) -> None:
        """Pick up a PIN or a lock-out that ``kiosk operator pin`` changed meanwhile."""
        from kiosk.settings.operator_pin import PinStore

        stamp = _stamp(self.state_path)
        if stamp != self._state_stamp:
            self._state_stamp = stamp
            self.state = LockState.load(self.state_path)
        stamp = _stamp(self.secret_path)
        if self.secret_path is not None and stamp != self._secret_stamp:
            self._secret_stamp = stamp
            stored = PinStore(self.secret_path.parent).read()
            if stored is not None:
                self._hash = stored.hashed
                log.warning("operator menu: the PIN was changed in %s", self.secret_path)

    def _save(self) -> None:
        self.state.save(self.state_path)
        self._state_stamp = _stamp(self.state_path)

    def _left(self) -> float:
        self._sync()
        s = self.state
        left = s.locked_until - self.clock()
        if left > s.lock_seconds:  # the wall clock went back (a Pi without RTC at boot)
            s.locked_until = self.clock() + s.lock_seconds
            left = s.lock_seconds
        return left

    def locked(self) -> bool:
        return self._left() > 0

    def seconds_left(self) -> int:
        """Whole seconds until the keypad opens again (0 when it is open)."""
        return max(0, math.ceil(self._left()))

    def next_lock_seconds(self) -> float:
        """How long the next lock-out of this series would last."""
        return min(self.max_lock_seconds, self.lock_seconds * 2 ** min(self.state.lockouts, 60))

    def check(self, entered: str) -> str:
        """``"ok"``, ``"wrong"``, or ``"locked"`` (too many tries: this one and the next
        ones until the lock ends are refused, right or wrong)."""
        if self.locked():
            return "locked"
        s, now = self.state, self.clock()
        s.locked_until = 0.0  # over: a clock set back later must not bring it back
        if (s.failures or s.lockouts) and now - s.last_wrong > FORGET_SECONDS:
            s.failures = s.lockouts = 0  # only forward: a clock set back forgets nothing
        if verify(entered, self._hash):
            if s.failures or s.lockouts:
                s.failures = s.lockouts = 0
                self._save()
            self._record("pin_ok", {})
            return "ok"
        s.failures += 1
        s.last_wrong = now
        log.warning("operator menu: wrong PIN (%d in a row)", s.failures)
        self._record("pin_wrong", {"in_a_row": s.failures})
        outcome = "wrong"
        if s.failures >= self.max_tries:
            seconds = self.next_lock_seconds()
            s.lockouts += 1
            s.failures = 0
            s.lock_seconds = seconds
            s.locked_until = now + seconds
            log.warning("operator menu: locked for %g s after %d wrong PINs (lock-out %d)",
                        seconds, self.max_tries, s.lockouts)
            self._record("pin_lockout", {"seconds": seconds, "lockout": s.lockouts})
            outcome = "locked"
        self._save()
        return outcome

    def unlock(self) -> None:
        """End the lock-out and the series (``kiosk operator pin --unlock``, a new PIN)."""
        self.state = LockState()
        self._save()

    def _record(self, kind: str, detail: dict[str, Any]) -> None:
        if self.record is None:
            return
        try:
            self.record(kind, detail)
        except Exception:  # noqa: BLE001 - the log must never stop the keypad
            log.exception("recording %s failed", kind)


def _stamp(path: Path | None) -> tuple[int, int] | None:
    """(mtime, size) of a file, None when absent: cheap enough to ask every second."""
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def guard_for(configured: str | None, data_dir: Path | None,
              record: Recorder | None = None) -> PinGuard:
    """The kiosk's guard: the configured PIN hash, else the data directory's PIN (drawn at
    random the first time, :class:`kiosk.settings.operator_pin.PinStore`); the lock-out is kept in
    ``data_dir``. Without a usable data directory (snapshots), a random PIN that nobody
    knows: the menu stays shut rather than open to a guessable PIN."""
    from kiosk.settings.operator_pin import PinStore, generate_pin

    secret = configured
    secret_path = None
    if secret is None and data_dir is not None:
        try:
            store = PinStore(data_dir)
            secret = store.ensure().hashed
            secret_path = store.hash_path
        except OSError as err:
            log.error("cannot keep the operator PIN in %s (%s); set operator_pin in the "
                      "configuration to open the operator menu", data_dir, err)
    if secret is None:
        secret = hash_pin(generate_pin())
    return PinGuard(secret, state_path=None if data_dir is None else data_dir / LOCK_FILE,
                    record=record, secret_path=secret_path)


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
