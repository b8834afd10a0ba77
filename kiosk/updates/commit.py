"""After a boot: the last update's record made final, and a slot on trial committed only
when its kiosk is healthy (``kiosk update commit --wait``, solitaire-kiosk-commit.service at
every boot).

Healthy means what a lobby needs: the kiosk unit is active (Type=notify: READY=1 came with
the app's first frame, the welcome screen, which the app also publishes in
``lobby.json``) and stays so, same process, no restart, its watchdog fed, for
:data:`HEALTHY_SECONDS`. Then ``rauc status mark-good booted``, and the backend rewrites
autoboot.txt: the firmware starts the new slot from now on.

A slot whose kiosk does not get there is never committed: when its unit gives up (the
start limit of a crash loop) or :data:`DEADLINE_MINUTES` pass, the slot is marked bad and
the kiosk restarts, and the firmware starts the committed slot. A kernel that panics or
hangs needs none of this: the panic's reboot (sysctl kernel.panic) or the hardware
watchdog restarts the Pi, and the firmware has already forgotten the try.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import quiet
from . import slots as slot_mod
from . import status as status_mod
from .status import UpdateStatus

KIOSK_UNIT = "solitaire-kiosk.service"
HEALTHY_SECONDS = 120.0
DEADLINE_MINUTES = 15.0


def settle(data_dir: Path, slots: slot_mod.Slots) -> UpdateStatus | None:
    """The status file after a boot: what a power cut or a failed trial left unfinished
    becomes final (or ``trying``, on the slot on trial)."""
    st = status_mod.load(data_dir)
    if st is None or st.final:
        return st
    version = st.version or "the update"
    running = st.from_version or "the previous version"
    if st.state in ("checking", "installing"):
        st.state = "failed"
        st.message = (f"the install of {version} was interrupted (a power cut or a restart); "
                      "the kiosk runs as before")
    elif st.state == "installed":
        if slots.next:
            return st          # the same boot: still waiting for its quiet moment
        st.state = "failed"
        st.message = (f"the kiosk restarted before it tried {version}; install it again")
    elif slots.booted and slots.booted == st.slot:
        if slots.on_trial:
            if st.state != "trying":
                st.state, st.message = "trying", f"{version} runs on trial (slot {slots.booted})"
            else:
                return st
        else:
            st.state, st.message = "committed", f"{version} runs (slot {slots.booted})"
    elif st.state == "rebooting":
        st.state = "rolled-back"
        st.message = (f"{version} did not start (the firmware started slot "
                      f"{slots.booted} again); {running} runs")
    else:  # trying, and this is the old slot again
        st.state = "rolled-back"
        st.message = (f"{version} started but did not become healthy; it was given up and "
                      f"{running} runs again")
    status_mod.save(data_dir, st)
    return st


@dataclass
class UnitState:
    active: str
    sub: str
    pid: int
    restarts: int
    watchdog: int        # WatchdogTimestampMonotonic: the last WATCHDOG=1

    @classmethod
    def parse(cls, text: str) -> UnitState:
        v = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

        def num(key: str) -> int:
            try:
                return int(v.get(key, "0") or 0)
            except ValueError:
                return 0
        return cls(v.get("ActiveState", ""), v.get("SubState", ""), num("MainPID"),
                   num("NRestarts"), num("WatchdogTimestampMonotonic"))


def kiosk_unit() -> UnitState:
    proc = subprocess.run(["systemctl", "show", KIOSK_UNIT, "-p", "ActiveState",
                           "-p", "SubState", "-p", "MainPID", "-p", "NRestarts",
                           "-p", "WatchdogTimestampMonotonic"],
                          capture_output=True, text=True, timeout=60)
    return UnitState.parse(proc.stdout)


class Health:
    """Follows the kiosk unit: :meth:`step` says how long it has been healthy without a
    break (seconds), or None when it has failed for good."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.pid = 0
        self.restarts = -1
        self.first_ping = 0
        self.fed = False

    def step(self, unit: UnitState, lobby: quiet.Lobby | None, now: float) -> float | None:
        if unit.active == "failed":
            return None
        shown = lobby is not None and lobby.pid == unit.pid
        if unit.active != "active" or unit.pid == 0 or not shown:
            self.since = None
            return 0.0
        if self.since is None or unit.pid != self.pid or unit.restarts != self.restarts:
            self.since, self.pid, self.restarts = now, unit.pid, unit.restarts
            self.first_ping, self.fed = unit.watchdog, False
        if unit.watchdog > self.first_ping:
            self.fed = True
        # healthy time counts once the watchdog has been fed at least once in the streak
        return now - self.since if self.fed else 0.0


def mark(state: str) -> None:
    """``rauc status mark-good|mark-bad booted`` (RAUC calls the backend)."""
    proc = subprocess.run(["rauc", "status", f"mark-{state}", "booted"], capture_output=True,
                          text=True, timeout=120)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or [f"rauc exited {proc.returncode}"])[-1]
        raise RuntimeError(f"rauc status mark-{state} booted: {last}")


def wait_and_commit(data_dir: Path, *, healthy_seconds: float = HEALTHY_SECONDS,
                    deadline_minutes: float = DEADLINE_MINUTES, every: float = 5.0,
                    describe: Callable[[], slot_mod.Slots] = slot_mod.describe,
                    unit: Callable[[], UnitState] = kiosk_unit,
                    lobby: Callable[[], quiet.Lobby | None] = quiet.read_lobby,
                    mark_slot: Callable[[str], None] = mark,
                    reboot: Callable[[], object] = lambda: subprocess.run(
                        ["systemctl", "reboot"]),
                    clock: Callable[[], float] = time.monotonic,
                    sleep: Callable[[float], None] = time.sleep,
                    say: Callable[[str], None] = lambda _line: None) -> str:
    """Settle the status; on a slot on trial wait for health, then commit it or give it
    up. Returns "committed", "rolled-back" or "nothing" (no slot on trial).

    The backend is asked again while it does not answer (RAUC and the backend took more
    than a minute at the boot of a 512 MB board under emulation): a trial is judged by the
    kiosk's health, never lost to one slow answer; past the deadline the SlotError stands."""
    give_up_at = clock() + deadline_minutes * 60

    def slots_now() -> slot_mod.Slots:
        while True:
            try:
                return describe()
            except slot_mod.SlotError as err:
                if clock() > give_up_at:
                    raise
                say(f"asking again: {err}")
                sleep(every)

    slots = slots_now()
    st = settle(data_dir, slots)
    if not slots.on_trial:
        return "nothing"
    if st is None or st.state != "trying" or st.slot != slots.booted:
        st = UpdateStatus("trying", slot=slots.booted, started=status_mod.now_iso(),
                          message=f"slot {slots.booted} runs on trial")
        status_mod.save(data_dir, st)
    say(f"slot {slots.booted} runs on trial: committing it after {healthy_seconds:.0f} s of a "
        f"healthy kiosk (giving it up after {deadline_minutes:.0f} min)")
    health = Health()
    start = clock()
    while True:
        now = clock()
        healthy = health.step(unit(), lobby(), now)
        if healthy is not None and healthy >= healthy_seconds:
            mark_slot("good")
            if slots_now().committed != slots.booted:
                raise RuntimeError(f"slot {slots.booted} was marked good but autoboot.txt "
                                   "does not start it")
            st.state = "committed"
            st.message = f"{st.version or 'the update'} runs (slot {slots.booted})"
            status_mod.save(data_dir, st)
            say(f"slot {slots.booted} committed")
            return "committed"
        if healthy is None or now - start > deadline_minutes * 60:
            why = ("its kiosk kept failing" if healthy is None else
                   f"its kiosk was not healthy within {deadline_minutes:.0f} min")
            st.state = "rolled-back"
            st.message = (f"{st.version or 'the update'} started but {why}; it was given up "
                          f"and {st.from_version or 'the previous version'} runs again")
            status_mod.save(data_dir, st)
            say(f"slot {slots.booted} given up: {why}; restarting into slot {slots.committed}")
            try:
                mark_slot("bad")
            finally:
                reboot()
            return "rolled-back"
        sleep(every)
