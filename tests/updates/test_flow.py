"""The root side of an update, step by step, with RAUC, systemd and the clock stood in for:
the install and its progress in the status file, the settling at boot, the health check
that commits or gives up, the app's requests and the quiet moment."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from games.engine.reason import Reason
from kiosk.updates import commit, quiet, requests, serve
from kiosk.updates import status as status_mod
from kiosk.updates.bundle import UNTRUSTED, BundleInfo, BundleRefused
from kiosk.updates.install import InstallError, install, locked
from kiosk.updates.reboot import TRYBOOT, reboot_command, reboot_into_update
from kiosk.updates.slots import SlotError, Slots

V1 = "0.1.0+20251206.120000"
V2 = "0.1.0+20251207.090000"
ON_A = Slots("A", "A", "B", "", {"A": "good", "B": "bad"})
INSTALLED = Slots("A", "A", "B", "B", {"A": "good", "B": "bad"})
TRIAL = Slots("B", "A", "B", "", {"A": "good", "B": "bad"})
BACK_ON_A = Slots("A", "A", "B", "", {"A": "good", "B": "bad"})


def fake_rauc(tmp_path: Path, lines: list[str], code: int = 0) -> tuple[str, ...]:
    """A `rauc install` that prints these lines (its own format) and exits ``code``."""
    script = tmp_path / "rauc-install"
    body = "".join(f"printf '%s\\n' {json.dumps(line)}\n" for line in lines)
    script.write_text(f"#!/bin/sh\n{body}exit {code}\n")
    script.chmod(0o755)
    return (str(script),)


def ok_check(path: Path) -> BundleInfo:
    return BundleInfo(path, "solitaire-kiosk-rpi-arm64", V2, "", 1, V1, "newer")


def states_seen(data: Path, run) -> list[tuple[str, int | None]]:
    """Every status the install writes, as (state, percent)."""
    seen: list[tuple[str, int | None]] = []
    real = status_mod.save

    def spy(d, st):
        seen.append((st.state, st.percent))
        return real(d, st)
    status_mod.save = spy
    try:
        run()
    finally:
        status_mod.save = real
    return seen


def test_install_writes_its_progress_then_installed(tmp_path: Path):
    cmd = fake_rauc(tmp_path, ["installing", "  0% Installing", " 20% Checking bundle",
                               " 40% Copying image to rootfs.1", " 80% Copying image to boot.1",
                               "100% Installing done.", "Installing `x` succeeded"])
    bundle = tmp_path / "x.raucb"
    seen = states_seen(tmp_path, lambda: install(bundle, tmp_path, describe=lambda: ON_A,
                                                 check=ok_check, command=cmd))
    assert seen[0] == ("checking", None) and seen[-1] == ("installed", 100)
    assert [p for s, p in seen if s == "installing"] == [0, 0, 20, 40, 80, 100]
    st = status_mod.load(tmp_path)
    assert (st.state, st.version, st.slot, st.bundle) == ("installed", V2, "B", str(bundle))
    assert oct(status_mod.path_in(tmp_path).stat().st_mode & 0o777) == "0o644"


def test_a_failed_install_says_why_and_the_kiosk_runs_as_before(tmp_path: Path):
    cmd = fake_rauc(tmp_path, [" 20% Checking bundle",
                               "LastError: Installation error: Failed writing slot",
                               "Installing `x` failed"], code=1)
    with pytest.raises(InstallError) as err:
        install(tmp_path / "x.raucb", tmp_path, describe=lambda: ON_A, check=ok_check,
                command=cmd)
    st = status_mod.load(tmp_path)
    assert st.state == "failed" and "Failed writing slot" in st.message
    assert str(err.value) == st.message and "runs as before" in st.message


def test_a_refused_bundle_is_recorded_and_nothing_runs(tmp_path: Path):
    def refuse(path: Path) -> BundleInfo:
        raise BundleRefused(path.name, Reason(UNTRUSTED))
    cmd = fake_rauc(tmp_path, ["should not run"], code=3)
    with pytest.raises(InstallError):
        install(tmp_path / "x.raucb", tmp_path, describe=lambda: ON_A, check=refuse,
                command=cmd)
    st = status_mod.load(tmp_path)
    assert st.state == "refused" and st.message.endswith("not signed with a key this kiosk trusts")


def test_no_install_while_the_running_slot_is_on_trial(tmp_path: Path):
    with pytest.raises(InstallError) as err:
        install(tmp_path / "x.raucb", tmp_path, describe=lambda: TRIAL, check=ok_check,
                command=fake_rauc(tmp_path, []))
    assert "on trial" in str(err.value) and status_mod.load(tmp_path).state == "refused"


def test_one_update_at_a_time(tmp_path: Path):
    with locked(tmp_path):
        with pytest.raises(InstallError) as err:
            install(tmp_path / "x.raucb", tmp_path, describe=lambda: ON_A, check=ok_check,
                    command=fake_rauc(tmp_path, []))
    assert "another update" in str(err.value)


def test_the_restart_tries_the_new_slot_once(tmp_path: Path):
    assert reboot_command(ON_A) is None
    # the option, not a second word: systemd 257 says "Too many arguments" to that
    assert reboot_command(INSTALLED) == ["systemctl", "reboot", f"--reboot-argument={TRYBOOT}"]
    status_mod.save(tmp_path, status_mod.UpdateStatus("installed", version=V2, slot="B"))
    ran: list[list[str]] = []
    assert reboot_into_update(tmp_path, describe=lambda: INSTALLED, run=ran.append)
    assert ran == [["systemctl", "reboot", "--reboot-argument=0 tryboot"]]
    assert status_mod.load(tmp_path).state == "rebooting"
    assert not reboot_into_update(tmp_path, describe=lambda: ON_A, run=ran.append)
    assert len(ran) == 1


def test_a_restart_that_cannot_start_leaves_the_update_installed(tmp_path: Path):
    """`systemctl reboot "0 tryboot"` refused (its parameter file on a read-only /run, in
    the boot test's first whole run): the status stays "installed", so the page offers
    Restart now again, instead of reading "Restarting…" for ever."""
    status_mod.save(tmp_path, status_mod.UpdateStatus("installed", version=V2, slot="B"))
    failed = subprocess.CompletedProcess(["systemctl"], 1)
    assert not reboot_into_update(tmp_path, describe=lambda: INSTALLED, run=lambda cmd: failed)
    st = status_mod.load(tmp_path)
    assert st.state == "installed" and "the restart into it failed" in st.message, st
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    status_mod.save(data, status_mod.UpdateStatus("installed", version=V2, slot="B"))
    requests.request_install(data, usb / "k.raucb")
    said: list[str] = []
    assert serve.serve(data, usb, say=said.append, install_fn=lambda b, d, say: None,
                       running=lambda: True, wait=lambda running, **_: "quiet",
                       reboot_fn=lambda d: reboot_into_update(
                           d, describe=lambda: INSTALLED, run=lambda cmd: failed)) == 1
    assert said[-1] == "the restart into the update did not start"
    assert status_mod.load(data).state == "installed"


# ------------------------------------------------------------------- after the boot
def saved(data: Path, state: str, **kw) -> None:
    status_mod.save(data, status_mod.UpdateStatus(state, version=V2, slot="B",
                                                  from_version=V1, **kw))


@pytest.mark.parametrize("before,slots,after,words", [
    ("installing", BACK_ON_A, "failed", "interrupted"),
    ("checking", BACK_ON_A, "failed", "interrupted"),
    ("installed", BACK_ON_A, "failed", "restarted before it tried"),
    ("installed", INSTALLED, "installed", ""),
    ("rebooting", TRIAL, "trying", "on trial"),
    ("rebooting", BACK_ON_A, "rolled-back", "did not start"),
    ("trying", BACK_ON_A, "rolled-back", "did not become healthy"),
    ("trying", Slots("B", "B", "A", "", {}), "committed", "runs"),
    ("committed", ON_A, "committed", ""),
])
def test_the_boot_settles_what_an_update_left(tmp_path: Path, before: str, slots: Slots,
                                             after: str, words: str):
    saved(tmp_path, before)
    st = commit.settle(tmp_path, slots)
    assert st.state == after and words in st.message
    assert status_mod.load(tmp_path).state == after


def unit(active="active", pid=100, restarts=0, watchdog=1) -> commit.UnitState:
    return commit.UnitState(active, "running", pid, restarts, watchdog)


def shown(pid=100) -> quiet.Lobby:
    return quiet.Lobby("welcome", 0.0, pid)


def test_health_needs_the_welcome_screen_a_steady_process_and_a_fed_watchdog():
    h = commit.Health()
    assert h.step(unit(active="activating"), None, 0) == 0
    assert h.step(unit(), None, 5) == 0, "no screen published yet"
    assert h.step(unit(), shown(), 10) == 0, "the streak starts"
    assert h.step(unit(watchdog=1), shown(), 50) == 0, "not fed yet"
    assert h.step(unit(watchdog=2), shown(), 60) == 50
    assert h.step(unit(watchdog=3), shown(), 130) == 120
    assert h.step(unit(pid=101, restarts=1, watchdog=3), shown(101), 140) == 0, "a restart"
    assert h.step(unit(pid=101, restarts=1, watchdog=4), shown(101), 150) == 10
    assert h.step(unit(active="failed"), None, 160) is None


class World:
    """The kiosk during a trial, minute by minute."""

    def __init__(self, units: list[commit.UnitState]) -> None:
        self.units = units
        self.now = 0.0
        self.marks: list[str] = []
        self.reboots = 0
        self.slots = TRIAL

    def unit(self) -> commit.UnitState:
        return self.units[min(int(self.now // 5), len(self.units) - 1)]

    def mark(self, state: str) -> None:
        self.marks.append(state)
        if state == "good":
            self.slots = Slots("B", "B", "A", "", {"A": "good", "B": "good"})

    def run(self, data: Path, **kw) -> str:
        return commit.wait_and_commit(
            data, describe=lambda: self.slots, unit=self.unit,
            lobby=lambda: shown(self.unit().pid), mark_slot=self.mark,
            reboot=lambda: setattr(self, "reboots", self.reboots + 1),
            clock=lambda: self.now, sleep=lambda s: setattr(self, "now", self.now + s), **kw)


def test_a_healthy_trial_is_committed_after_two_minutes(tmp_path: Path):
    saved(tmp_path, "rebooting")
    w = World([unit(watchdog=i) for i in range(1, 200)])
    assert w.run(tmp_path) == "committed"
    assert w.marks == ["good"] and w.reboots == 0 and 120 <= w.now <= 130
    st = status_mod.load(tmp_path)
    assert st.state == "committed" and st.version == V2


def test_a_crash_looping_kiosk_is_given_up_at_once(tmp_path: Path):
    saved(tmp_path, "rebooting")
    w = World([unit(active="activating", pid=0)] * 6 + [unit(active="failed", pid=0)])
    assert w.run(tmp_path) == "rolled-back"
    assert w.marks == ["bad"] and w.reboots == 1 and w.now < 60
    st = status_mod.load(tmp_path)
    assert st.state == "rolled-back" and "kept failing" in st.message and V1 in st.message


def test_a_kiosk_never_healthy_is_given_up_at_the_deadline(tmp_path: Path):
    saved(tmp_path, "rebooting")
    w = World([unit(active="activating", pid=0)])
    assert w.run(tmp_path, deadline_minutes=15) == "rolled-back"
    assert w.marks == ["bad"] and w.reboots == 1 and 900 <= w.now <= 910


def test_a_backend_slow_to_answer_is_asked_again_and_the_trial_still_judged(tmp_path: Path):
    """At the boot of a 512 MB board under emulation the backend took over a minute: the
    commit unit died with a traceback and the trial would have been lost."""
    saved(tmp_path, "rebooting")
    w = World([unit(watchdog=i) for i in range(1, 200)])
    answers = iter([SlotError("did not answer in 60 s")] * 2)
    said: list[str] = []

    def slow() -> Slots:
        err = next(answers, None)
        if err is not None:
            raise err
        return w.slots
    result = commit.wait_and_commit(
        tmp_path, describe=slow, unit=w.unit, lobby=lambda: shown(w.unit().pid),
        mark_slot=w.mark, reboot=lambda: None, clock=lambda: w.now,
        sleep=lambda s: setattr(w, "now", w.now + s), say=said.append)
    assert result == "committed" and w.marks == ["good"]
    assert sum(line.startswith("asking again") for line in said) == 2


def test_a_backend_that_never_answers_ends_the_unit_in_one_line(tmp_path: Path, capsys,
                                                                 monkeypatch):
    from kiosk.commands.cli import main as kiosk_main

    def never(*_a, **_k):
        raise SlotError("did not answer in 60 s")
    monkeypatch.setattr(commit, "wait_and_commit", never)
    monkeypatch.setattr("kiosk.updates.slots.describe", lambda *a: ON_A)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    code = kiosk_main(["update", "commit", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "did not answer" in err, err


def test_nothing_to_commit_on_a_committed_slot(tmp_path: Path):
    w = World([unit()])
    w.slots = ON_A
    assert w.run(tmp_path) == "nothing" and w.marks == [] and w.reboots == 0


# ------------------------------------------------------------------ requests, quiet
def test_requests_name_an_action_and_a_bundle_from_the_stick_or_the_downloads(tmp_path: Path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    (data / "updates").mkdir(parents=True)
    usb.mkdir()
    requests.request_install(data, usb / "k.raucb")
    assert requests.pending(data)
    r = requests.take(data, usb)
    assert (r.action, r.bundle, r.reboot) == ("install", usb / "k.raucb", "when-quiet")
    assert not requests.pending(data) and requests.take(data, usb) is None
    requests.request_install(data, data / "updates/k.raucb", "now")
    assert requests.take(data, usb).reboot == "now"
    requests.request_reboot(data)
    assert requests.take(data, usb).action == "reboot"


@pytest.mark.parametrize("text,reason", [
    ('{"action": "install", "bundle": "/etc/shadow"}', "USB stick or the centre"),
    ('{"action": "install", "bundle": "USB/../../etc/x.raucb"}', "USB stick or the centre"),
    ('{"action": "format"}', "unknown update request"),
    ('{"action": "install"}', "names no bundle"),
    ('{"action": "install", "bundle": "USB/k.raucb", "reboot": "later"}', "reboot policy"),
    ("[]", "not a JSON object"),
    ("{", "not JSON"),
])
def test_the_root_side_trusts_nothing_in_a_request(tmp_path: Path, text: str, reason: str):
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    (data / requests.REQUEST_NAME).write_text(text.replace("USB", str(usb)))
    with pytest.raises(requests.RequestError) as err:
        requests.take(data, usb)
    assert reason in str(err.value)
    assert not requests.pending(data), "a bad request is taken away too"


def test_a_link_on_the_stick_cannot_point_out_of_it(tmp_path: Path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    (usb / "k.raucb").symlink_to("/etc/hostname")
    requests.request_install(data, usb / "k.raucb")
    with pytest.raises(requests.RequestError):
        requests.take(data, usb)


def test_quiet_means_minutes_of_the_demo_or_no_app(tmp_path: Path):
    now = 10_000.0
    assert quiet.is_quiet(None, kiosk_running=False, now=now)
    assert not quiet.is_quiet(None, kiosk_running=True, now=now)
    demo = quiet.Lobby("attract", now - 301, 1)
    assert quiet.is_quiet(demo, True, now=now, minutes=5)
    assert not quiet.is_quiet(quiet.Lobby("attract", now - 200, 1), True, now=now, minutes=5)
    assert not quiet.is_quiet(quiet.Lobby("table", now - 3600, 1), True, now=now)
    assert not quiet.is_quiet(quiet.Lobby("operator", now - 3600, 1), True, now=now)


def test_the_app_publishes_its_screen_where_the_root_side_reads_it(tmp_path: Path):
    quiet.publish("table", tmp_path, now=5.0)
    lobby = quiet.read_lobby(tmp_path / quiet.LOBBY_NAME)
    assert lobby == quiet.Lobby("table", 5.0, os.getpid())
    quiet.publish("attract", tmp_path / "missing-dir")    # never raises
    (tmp_path / quiet.LOBBY_NAME).write_text("{broken")
    assert quiet.read_lobby(tmp_path / quiet.LOBBY_NAME) is None


def test_wait_for_quiet_waits_for_the_demo_and_yields_to_the_operator(tmp_path: Path):
    path = tmp_path / quiet.LOBBY_NAME
    clock = {"t": 0.0}
    quiet.publish("table", tmp_path, now=0.0)

    def sleep(s: float) -> None:
        clock["t"] += s
        if clock["t"] == 600:
            quiet.publish("attract", tmp_path, now=600.0)
    how = quiet.wait_for_quiet(lambda: True, minutes=5, lobby_path=path,
                               clock=lambda: clock["t"], sleep=sleep, every=10)
    assert how == "quiet" and clock["t"] == 900
    asked = quiet.wait_for_quiet(lambda: True, lobby_path=path, interrupt=lambda: True,
                                 clock=lambda: 0.0, sleep=lambda s: None)
    assert asked == "asked"


def test_serve_installs_then_restarts_when_nobody_plays(tmp_path: Path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    events: list[str] = []
    requests.request_install(data, usb / "k.raucb")

    def wait(running, *, minutes, interrupt, **_):
        events.append(f"wait {minutes:g}")
        return "quiet"
    code = serve.serve(data, usb, quiet_minutes=3, say=lambda _l: None,
                       install_fn=lambda b, d, say: events.append(f"install {b.name}"),
                       reboot_fn=lambda d: events.append("reboot") or True,
                       running=lambda: True, wait=wait)
    assert code == 0 and events == ["install k.raucb", "wait 3", "reboot"]


def test_serve_restarts_at_once_when_the_operator_asks_while_it_waits(tmp_path: Path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    requests.request_install(data, usb / "k.raucb")
    reboots: list[Path] = []

    def operator_then_check(running, *, minutes, interrupt, **_):
        requests.request_reboot(data)           # "Restart now" on the operator's page
        return "asked" if interrupt() else "quiet"
    serve.serve(data, usb, say=lambda _l: None, install_fn=lambda b, d, say: None,
                reboot_fn=lambda d: reboots.append(d) or True, running=lambda: True,
                wait=operator_then_check)
    assert reboots == [data] and not requests.pending(data)


def test_serve_records_a_bad_request_and_a_failed_install(tmp_path: Path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    data.mkdir()
    usb.mkdir()
    (data / requests.REQUEST_NAME).write_text('{"action": "install", "bundle": "/tmp/x"}')
    assert serve.serve(data, usb, say=lambda _l: None) == 2
    assert status_mod.load(data).state == "refused"

    def failing(b, d, say):
        raise InstallError("the install of V failed: boom; the kiosk runs as before")
    requests.request_install(data, usb / "k.raucb")
    assert serve.serve(data, usb, say=lambda _l: None, install_fn=failing,
                       reboot_fn=lambda d: pytest.fail("no restart")) == 1


def test_the_status_file_is_read_by_others_and_survives_damage(tmp_path: Path):
    assert status_mod.load(tmp_path) is None
    status_mod.path_in(tmp_path).write_text('{"state": "exploded"}')
    assert status_mod.load(tmp_path) is None
    status_mod.path_in(tmp_path).write_text("{")
    assert status_mod.load(tmp_path) is None
    st = status_mod.save(tmp_path, status_mod.UpdateStatus("installing", percent=3))
    assert st.updated and status_mod.load(tmp_path).percent == 3


def test_locks_are_per_kiosk_not_per_process(tmp_path: Path):
    entered = threading.Event()
    release = threading.Event()

    def hold():
        with locked(tmp_path):
            entered.set()
            release.wait(10)
    t = threading.Thread(target=hold)
    t.start()
    entered.wait(10)
    try:
        with pytest.raises(InstallError):
            with locked(tmp_path):
                pass
    finally:
        release.set()
        t.join()
