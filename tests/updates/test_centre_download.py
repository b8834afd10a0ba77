"""Issue 33 item 6 on the kiosk: a sync pass's work on the centre's release, against a web
server on 127.0.0.1 (tests/updates/bundle_server.py) and, for a full card, a real small
file system (a tmpfs). Every fault gives one line and leaves the kiosk as it was: no
request for the root unit, no bundle, its update status untouched."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.updates import centre, commit, download, requests, serve
from kiosk.updates import status as status_mod
from kiosk.updates.centre import Budget, Release
from kiosk.updates.slots import Slots

from .bundle_server import BundleServer, Faults

V1 = "0.1.0+20251206.120000"
V2 = "0.1.0+20251207.090000"
V3 = "0.1.0+20251208.090000"
MIB = 1024 * 1024
BUDGET = Budget(seconds=120, keep_free=0)


@pytest.fixture(scope="module")
def payload() -> bytes:
    return os.urandom(3 * MIB + 12345)


@pytest.fixture
def server(payload):
    s = BundleServer({"kiosk.raucb": payload})
    yield s
    s.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d


def release(server: BundleServer, payload: bytes, *, version: str = V2, rid: int = 1,
            scope: str = "group", halted: bool = False, sha: str | None = None,
            size: int | None = None, name: str = "kiosk.raucb") -> Release:
    return Release(rid, version, server.url(name), len(payload) if size is None else size,
                   sha or hashlib.sha256(payload).hexdigest(), scope, halted)


def untouched(data: Path) -> None:
    """What a fault must leave: nothing for the root unit, no bundle, no update status."""
    assert not requests.pending(data)
    assert status_mod.load(data) is None
    assert not list(centre.updates_dir(data).glob("*.raucb"))


class Ticks:
    """A clock that moves one second each time it is read (the download reads it once per
    chunk): a budget of N seconds is about N chunks, whatever the machine's speed."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def test_a_release_is_fetched_checked_and_handed_to_the_install_path(server, payload, data):
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "handed" and st.error is None and st.bytes == len(payload)
    bundle = centre.bundle_path(data, V2)
    assert bundle.read_bytes() == payload
    assert not centre.part_path(data, V2).exists()
    # updates-img's root side takes it as it takes the USB stick's: its own parser
    taken = requests.take(data, Path("/media/usb"))
    assert taken == requests.Request("install", bundle, "in-window")
    assert [s.status for s in server.log] == [200]
    # the state file says what the heartbeat reports
    fields = centre.heartbeat_fields(data)
    assert (fields["download_release"], fields["download_state"],
            fields["download_bytes"]) == (1, "handed", len(payload))


def test_a_transfer_cut_midway_is_resumed_where_it_stopped(server, payload, data):
    server.faults = Faults(cut_after=MIB + 777)
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "downloading"
    assert "transfer stopped at 1 MB" in st.error and "next pass resumes" in st.error
    assert "\n" not in st.error
    part = centre.part_path(data, V2)
    assert part.stat().st_size == MIB + 777
    untouched(data)
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "handed" and st.error is None
    assert centre.bundle_path(data, V2).read_bytes() == payload
    first, second = server.log
    assert (first.status, first.range) == (200, None)
    # the rest only, and only if it is still the same file (If-Range: the ETag)
    assert (second.status, second.range, second.if_range) == (
        206, f"bytes={MIB + 777}-", BundleServer.etag(payload))
    assert server.bytes_sent == len(payload)


def test_the_time_budget_bounds_a_pass_and_the_next_passes_go_on(server, payload, data):
    clock = Ticks()
    budget = Budget(seconds=5, keep_free=0)
    passes = 0
    while True:
        passes += 1
        st = centre.step(data, release(server, payload), budget, running=V1, mono=clock)
        if st.state != "downloading":
            break
        assert st.error is None  # the budget is no fault
        assert 0 < st.bytes < len(payload)
        assert passes < 20
    assert st.state == "handed" and passes >= 3
    assert centre.bundle_path(data, V2).read_bytes() == payload
    assert [s.status for s in server.log] == [200] + [206] * (passes - 1)


def test_a_server_that_ignores_range_sends_the_whole_file_again(server, payload, data):
    server.faults = Faults(cut_after=MIB, ignore_range=True)
    assert centre.step(data, release(server, payload), BUDGET, running=V1).state == \
        "downloading"
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "handed"
    assert centre.bundle_path(data, V2).read_bytes() == payload
    assert [s.status for s in server.log] == [200, 200]


def test_a_file_changed_on_the_server_is_not_spliced(server, payload, data):
    """If-Range: the server's file changed between two passes, so it sends the new file
    whole; the old part is dropped, and the new file fails the release's sha256."""
    server.faults = Faults(cut_after=MIB)
    centre.step(data, release(server, payload), BUDGET, running=V1)
    server.files["kiosk.raucb"] = os.urandom(len(payload))
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert server.log[1].status == 200 and server.log[1].if_range is not None
    assert st.state == "downloading" and "sha256" in st.error and st.attempts == 1
    untouched(data)
    assert not centre.part_path(data, V2).exists()


def test_a_wrong_sha256_gives_one_line_and_is_given_up_after_three(server, payload, data):
    wrong = release(server, payload, sha="ab" * 32)
    for attempt in (1, 2):
        st = centre.step(data, wrong, BUDGET, running=V1)
        assert st.state == "downloading" and st.attempts == attempt
        assert st.error.startswith("the downloaded bundle's sha256 is ")
        assert "the release says abababababab..." in st.error and "\n" not in st.error
        untouched(data)
        assert not list(centre.updates_dir(data).iterdir())
    st = centre.step(data, wrong, BUDGET, running=V1)
    assert st.state == "failed" and st.error.startswith("gave up after 3 attempts: ")
    fetched = len(server.log)
    st = centre.step(data, wrong, BUDGET, running=V1)
    assert st.state == "failed" and len(server.log) == fetched  # no fourth download
    untouched(data)
    # the office's next release (other bytes) starts afresh
    st = centre.step(data, release(server, payload, rid=2), BUDGET, running=V1)
    assert st.state == "handed"


def test_a_server_file_of_another_size_is_refused_before_it_is_stored(server, payload, data):
    st = centre.step(data, release(server, payload, size=len(payload) + 1), BUDGET,
                     running=V1)
    assert st.state == "downloading" and st.attempts == 1
    assert f"the server's file is {len(payload)} bytes, the release says " \
        f"{len(payload) + 1}" in st.error
    untouched(data)
    assert not list(centre.updates_dir(data).iterdir())


def test_a_server_that_sends_more_than_it_said(server, payload, data):
    """A server that claims a shorter length: the file would be cut short; the checks
    catch it (the size), and nothing is handed over."""
    server.faults = Faults(lie_length=len(payload) - 10)
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "downloading" and "the release says" in st.error
    untouched(data)


def test_a_missing_file_and_a_dead_server_are_one_line_and_tried_again(server, payload,
                                                                        data):
    st = centre.step(data, release(server, payload, name="gone.raucb"), BUDGET, running=V1)
    assert st.state == "downloading" and st.attempts == 0
    assert st.error == f"{server.url('gone.raucb')}: the server answered 404 Not Found"
    dead = Release(1, V2, "http://127.0.0.1:9/kiosk.raucb", len(payload),
                   hashlib.sha256(payload).hexdigest(), "all", False)
    st = centre.step(data, dead, BUDGET, running=V1)
    assert st.state == "downloading" and "Connection refused" in st.error
    untouched(data)


@pytest.fixture
def small_fs(tmp_path: Path):
    """A real file system of 6 MiB for the data directory (a tmpfs: tests run as root
    here; ENOSPC comes from the kernel, statvfs is its own)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (the tests run as root in make test)")
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m,mode=0755", "tmpfs", str(mnt)],
                   check=True)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_full_data_partition_is_checked_before_anything_is_fetched(server, small_fs):
    big = os.urandom(7 * MIB)
    server.files["big.raucb"] = big
    st = centre.step(small_fs, release(server, big, name="big.raucb"), BUDGET, running=V1)
    assert st.state == "no-room"
    assert st.error.startswith("not enough room on the data partition for the update: it "
                               "needs 7 MB and must leave 0 kB for the play log; ")
    assert server.log == []  # nothing asked of the server
    untouched(small_fs)
    assert not list(centre.updates_dir(small_fs).iterdir())
    # room for the bundle but not for what the play log keeps
    server.files["mid.raucb"] = mid = os.urandom(3 * MIB)
    st = centre.step(small_fs, release(server, mid, name="mid.raucb", rid=2),
                     Budget(seconds=60, keep_free=4 * MIB), running=V1)
    assert st.state == "no-room" and "must leave 4 MB for the play log" in st.error
    assert server.log == []


def test_a_partition_that_fills_up_midway_gets_its_room_back(server, small_fs):
    """The play log (here a file written as the bytes arrive) takes the room the download
    counted on: the write fails, the partial download is removed, one line."""
    body = os.urandom(4 * MIB)
    server.files["b.raucb"] = body
    filler = small_fs / "plays.db"

    def grow(sent: int) -> None:
        if sent >= MIB and not filler.exists():
            with open(filler, "wb") as fh:
                try:
                    fh.write(b"\0" * (int(2.5 * MIB)))
                except OSError:
                    pass
    server.faults = Faults(on_sent=grow)
    st = centre.step(small_fs, release(server, body, name="b.raucb"), BUDGET, running=V1)
    assert st.state == "no-room"
    assert st.error == ("the data partition filled up during the download; the partial "
                        "download was removed (the play log comes first)")
    assert not list(centre.updates_dir(small_fs).iterdir())
    untouched(small_fs)
    assert filler.stat().st_size > 0  # the play log's bytes are its own
    filler.unlink()
    server.faults = Faults()
    st = centre.step(small_fs, release(server, body, name="b.raucb"), BUDGET, running=V1)
    assert st.state == "handed"


def test_what_is_not_fetched(server, payload, data):
    """The running version, an older one, a halted one, no A/B image, another update
    under way: nothing is fetched."""
    cases = [
        (release(server, payload, version=V1), V1, "current", None),
        (release(server, payload, version=V1), V2, "skipped",
         f"{V1} is older than the running {V2}"),
        (release(server, payload, halted=True), V1, "halted",
         f"{V2} is halted at the office; nothing more is fetched until it is resumed"),
        (release(server, payload), None, "unsupported", "not an A/B kiosk image"),
    ]
    for rel, running, state, line in cases:
        st = centre.step(data, rel, BUDGET, running=running)
        assert st.state == state, (rel, running)
        assert (st.error or "").startswith(line or "")
    status_mod.save(data, status_mod.UpdateStatus("installing", bundle="/media/usb/x.raucb",
                                                  version=V3, percent=40))
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "waiting" and "another update is under way (installing" in st.error
    assert server.log == []


def test_a_halt_keeps_what_came_and_resume_goes_on_from_there(server, payload, data):
    server.faults = Faults(cut_after=2 * MIB)
    centre.step(data, release(server, payload), BUDGET, running=V1)
    st = centre.step(data, release(server, payload, halted=True), BUDGET, running=V1)
    assert st.state == "halted" and centre.part_path(data, V2).stat().st_size == 2 * MIB
    st = centre.step(data, release(server, payload, rid=2, scope="all"), BUDGET, running=V1)
    assert st.state == "handed" and server.log[-1].range == f"bytes={2 * MIB}-"


def _root_side(data: Path, state: str, st: centre.CentreState, message: str = "") -> None:
    """What updates-img's root side writes for the bundle handed over."""
    status_mod.save(data, status_mod.UpdateStatus(
        state, message=message, bundle=st.bundle, version=V2, from_version=V1, slot="B",
        started=status_mod.now_iso()))


def test_the_root_side_takes_it_installs_and_restarts_in_the_window(server, payload, data):
    """updates-img's own `kiosk update serve` takes the request the pass left: it installs
    the downloaded bundle and waits for a quiet moment inside the operator's window."""
    centre.step(data, release(server, payload), BUDGET, running=V1)
    installed: list[Path] = []
    waits: list[bool] = []

    def install(bundle: Path, data_dir: Path, say=None):
        installed.append(bundle)
        status_mod.save(data_dir, status_mod.UpdateStatus(
            "installed", message=f"{V2} is installed in slot B", bundle=str(bundle),
            version=V2, slot="B", started=status_mod.now_iso()))

    def wait(running, *, minutes, interrupt, allowed):
        waits.append(allowed())
        return "quiet"

    rebooted: list[Path] = []
    code = serve.serve(data, Path("/media/usb"), install_fn=install,
                       reboot_fn=lambda d: rebooted.append(d) or True, wait=wait,
                       window="03:00-05:00", time_zone="Asia/Shanghai", say=lambda _l: None)
    assert code == 0 and installed == [centre.bundle_path(data, V2)] and rebooted == [data]
    assert len(waits) == 1
    st = status_mod.load(data)
    assert st.message == (f"{V2} is installed in slot B; restarts between 03:00 and 05:00 "
                          "(Asia/Shanghai) when nobody is playing")
    assert centre.step(data, release(server, payload), BUDGET, running=V1).state == "handed"


@pytest.mark.parametrize("outcome,state,kept", [
    ("committed", "done", False), ("rolled-back", "rolled-back", False),
    ("refused", "failed", False), ("installing", "handed", True),
    ("installed", "handed", True), ("trying", "handed", True)])
def test_each_outcome_of_the_root_side(server, payload, data, outcome, state, kept):
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    requests.take(data, Path("/media/usb"))
    _root_side(data, outcome, st, message="why it ended so")
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == (state if outcome != "committed" else "done")
    assert centre.bundle_path(data, V2).exists() == kept
    fields = centre.heartbeat_fields(data)
    assert (fields["update_state"], fields["update_version"], fields["update_release"]) == (
        outcome, V2, 1)
    if outcome == "rolled-back":
        assert st.rolled_back == {V2: 1}
    if outcome == "refused":
        assert st.error == f"this kiosk refused {V2}: why it ended so"
    assert len(server.log) == 1


def test_a_failed_install_is_handed_over_again_then_given_up(server, payload, data):
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    for attempt in (1, 2):
        requests.take(data, Path("/media/usb"))
        _root_side(data, "failed", st, "the install of it was interrupted (a power cut)")
        st = centre.step(data, release(server, payload), BUDGET, running=V1)
        assert st.state == "handed" and st.attempts == attempt and requests.pending(data)
    requests.take(data, Path("/media/usb"))
    _root_side(data, "failed", st, "the install failed")
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "failed" and st.error == "gave up after 3 attempts: the install failed"
    assert not requests.pending(data) and not centre.bundle_path(data, V2).exists()
    assert len(server.log) == 1  # the same download served every attempt
    assert centre.step(data, release(server, payload), BUDGET, running=V1).state == "failed"
    # the office releases it again (to this kiosk, or to all after the canary): a new try
    st = centre.step(data, release(server, payload, rid=2, scope="kiosk"), BUDGET, running=V1)
    assert st.state == "handed" and st.attempts == 0 and len(server.log) == 2


def test_a_rolled_back_version_is_not_tried_again_unless_released_to_this_kiosk(
        server, payload, data):
    st = centre.step(data, release(server, payload, rid=5), BUDGET, running=V1)
    requests.take(data, Path("/media/usb"))
    _root_side(data, "rolled-back", st, f"{V2} started but did not become healthy")
    centre.step(data, release(server, payload, rid=5), BUDGET, running=V1)
    # the rest of the fleet gets it (the same bundle, released to all): not this kiosk
    st = centre.step(data, release(server, payload, rid=6, scope="all"), BUDGET, running=V1)
    assert st.state == "rolled-back" and st.error == f"{V2} started but did not become healthy"
    assert len(server.log) == 1
    # what the kiosk remembers is the rollback itself, not the state's last line: the same
    # release seen afresh is skipped, with the reason
    st.state, st.error = "idle", None
    centre.save(data, st)
    st = centre.step(data, release(server, payload, rid=6, scope="all"), BUDGET, running=V1)
    assert st.state == "skipped" and "was rolled back on this kiosk (release 5)" in st.error
    assert len(server.log) == 1
    # the office asks this kiosk alone for one more try
    st = centre.step(data, release(server, payload, rid=7, scope="kiosk"), BUDGET, running=V1)
    assert st.state == "handed" and len(server.log) == 2


def test_settling_after_boot_then_the_pass_reports_the_rollback(server, payload, data):
    """The whole root side of updates-img for a bundle whose slot never started: the
    restart's record, then commit.settle on the old slot, as the next boot does."""
    from kiosk.updates.reboot import reboot_into_update

    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    requests.take(data, Path("/media/usb"))
    status_mod.save(data, status_mod.UpdateStatus(
        "installed", bundle=st.bundle, version=V2, from_version=V1, slot="B",
        started=status_mod.now_iso()))
    installed = Slots("A", "A", "B", "B", {"A": "good", "B": "bad"})
    assert reboot_into_update(data, describe=lambda: installed, run=lambda cmd: None)
    commit.settle(data, Slots("A", "A", "B", "", {"A": "good", "B": "bad"}))
    st = centre.step(data, release(server, payload), BUDGET, running=V1)
    assert st.state == "rolled-back"
    assert st.error == f"{V2} did not start (the firmware started slot A again); {V1} runs"


def test_https_with_the_office_s_ca(payload, data, tmp_path):
    from tests.fleet.pgserver import make_certificates

    certs = tmp_path / "certs"
    certs.mkdir()
    cas = make_certificates(certs, None)
    s = BundleServer({"kiosk.raucb": payload}, tls=(certs / "server.pem", certs / "server.key"))
    try:
        st = centre.step(data, release(s, payload), BUDGET, running=V1)
        assert st.state == "downloading"
        assert "the server's certificate cannot be verified" in st.error
        assert "[updates] ca_file names the office's CA" in st.error
        untouched(data)
        st = centre.step(data, release(s, payload), Budget(60, 0, cas["other_ca"]),
                         running=V1)
        assert "cannot be verified" in st.error
        st = centre.step(data, release(s, payload), Budget(60, 0, cas["ca"]), running=V1)
        assert st.state == "handed"
    finally:
        s.close()


def test_a_url_that_is_not_http_is_refused_at_once(payload, data):
    rel = Release(1, V2, "file:///etc/shadow", len(payload), "ab" * 32, "all", False)
    st = centre.step(data, rel, BUDGET, running=V1)
    assert st.state == "failed" and "starts with http:// or https://" in st.error
    untouched(data)


def test_no_release_any_more_removes_what_was_fetched(server, payload, data):
    server.faults = Faults(cut_after=MIB)
    centre.step(data, release(server, payload), BUDGET, running=V1)
    assert centre.part_path(data, V2).exists()
    st = centre.step(data, None, BUDGET, running=V1)
    assert st.state == "idle" and not list(centre.updates_dir(data).iterdir())
    assert centre.heartbeat_fields(data)["download_state"] is None


def test_the_booted_slot_comes_from_the_kernel_command_line(tmp_path):
    cmdline = tmp_path / "cmdline"
    cmdline.write_text("console=tty3 root=PARTUUID=6b696f73-06 rauc.slot=B ro rootwait\n")
    assert centre.booted_slot(cmdline) == "B"
    cmdline.write_text("console=tty3 root=/dev/sda2\n")
    assert centre.booted_slot(cmdline) is None


def test_the_download_module_writes_only_its_own_files(server, payload, data):
    """The pass may hold plays.db and the rest in the same directory: only .raucb and
    .raucb.part files in updates/ are ever removed."""
    (data / "plays.db").write_bytes(b"x")
    keep = centre.updates_dir(data)
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    centre.step(data, release(server, payload), BUDGET, running=V1)
    centre.step(data, None, BUDGET, running=V1)
    assert (data / "plays.db").exists() and (keep / "notes.txt").exists()
    assert shutil.disk_usage(data).free > 0
    assert download.mb(3 * MIB) == "3 MB"
