"""The operator's window for restarts into an update from the centre (``[updates]
window``), its configuration keys as the checker reads them, and the root side's wait."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

import pytest

from kiosk.settings import config
from kiosk.updates import quiet, requests, serve
from kiosk.updates import status as status_mod
from kiosk.updates.window import Window, WindowError, open_now, parse_window


def test_a_window_is_two_times_of_day_and_may_cross_midnight():
    night = parse_window("03:00-05:00")
    assert night == Window(time(3), time(5)) and str(night) == "03:00-05:00"
    assert night.contains(time(3)) and night.contains(time(4, 59))
    assert not night.contains(time(5)) and not night.contains(time(2, 59))
    late = parse_window(" 23:30 - 1:00 ")
    assert late.contains(time(23, 45)) and late.contains(time(0, 30))
    assert not late.contains(time(1)) and not late.contains(time(12))


@pytest.mark.parametrize("text,why", [
    ("3-5", "HH:MM-HH:MM"), ("25:00-05:00", "hours are 00 to 23"),
    ("03:00-03:00", "starts where it ends"), (300, "write it in quotes")])
def test_what_is_not_a_window(text, why):
    with pytest.raises(WindowError) as err:
        parse_window(text)
    assert why in str(err.value)


def test_the_window_is_read_in_its_time_zone():
    noon_utc = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)        # 20:00 in Shanghai
    assert not open_now("03:00-05:00", "Asia/Shanghai", noon_utc)
    assert open_now("19:00-21:00", "Asia/Shanghai", noon_utc)
    assert open_now("11:00-13:00", "UTC", noon_utc)
    assert open_now(None, None, noon_utc)  # no window: any quiet moment


def test_the_config_checker_reads_the_updates_section():
    cfg = config.load_text('[updates]\nwindow = "02:00-04:30"\ntime_zone = "Europe/Berlin"\n'
                           'download_minutes = 2\nkeep_free_mb = 500\n'
                           'ca_file = "/etc/solitaire-kiosk/updates-ca.pem"\n', "k.toml")
    assert cfg.problems == []
    u = cfg.updates
    assert (u.window, u.time_zone, u.download_minutes, u.keep_free_mb, str(u.ca_file)) == (
        "02:00-04:30", "Europe/Berlin", 2.0, 500.0, "/etc/solitaire-kiosk/updates-ca.pem")
    assert cfg.to_dict()["updates"]["window"] == "02:00-04:30"
    bad = config.load_text('[updates]\nwindow = "3am"\ntime_zone = "Mars/Olympus"\n'
                           "download_minutes = 0\nbogus = 1\n", "k.toml")
    assert bad.problems == [
        "k.toml: updates.window: '3am' is not a window (HH:MM-HH:MM, e.g. \"03:00-05:00\"); "
        "using None",
        "k.toml: updates.time_zone: 'Mars/Olympus' is not a time zone this kiosk knows (an "
        "IANA name such as \"Europe/Berlin\" or \"Asia/Shanghai\"); using None",
        "k.toml: updates.download_minutes: 0 is out of range (0.5 to 10); using 4.0",
        "k.toml: updates.bogus: unknown key; ignored"]
    assert bad.updates.window is None  # a bad window never starts a kiosk that waits forever


def test_the_default_is_any_quiet_moment():
    cfg = config.load_text("", "k.toml")
    assert cfg.updates.window is None and cfg.updates.download_minutes == 4.0
    assert cfg.updates.keep_free_mb == 300.0


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += s


def test_a_quiet_lobby_waits_for_the_window(tmp_path: Path):
    """Attract mode since long before the window: the restart comes when the window opens,
    not before."""
    lobby = tmp_path / "lobby.json"
    start = datetime(2026, 3, 1, 1, 0, tzinfo=UTC).timestamp()
    clock = Clock(start)
    quiet.publish("attract", tmp_path, now=start - 3600)
    how = quiet.wait_for_quiet(lambda: True, lobby_path=lobby, clock=clock, sleep=clock.sleep,
                               every=60, allowed=lambda: open_now(
                                   "03:00-05:00", "UTC",
                                   datetime.fromtimestamp(clock.t, UTC)))
    assert how == "quiet"
    assert datetime.fromtimestamp(clock.t, UTC).strftime("%H:%M") == "03:00"


def test_an_install_asked_for_while_waiting_is_not_lost(tmp_path: Path):
    """The wait for the window can last a day: the operator's stick install asked for
    meanwhile stays for the root unit's next start (only a restart request is taken)."""
    data = tmp_path
    stick = tmp_path / "usb"
    stick.mkdir()
    bundle = data / requests.DOWNLOADS / "kiosk-x.raucb"
    bundle.parent.mkdir()
    bundle.write_bytes(b"x")
    requests.request_install(data, bundle, "in-window")
    seen: list[bool] = []

    def install(b, d, say=None):
        status_mod.save(d, status_mod.UpdateStatus("installed", message="installed",
                                                   bundle=str(b)))
        requests.request_install(d, stick, "when-quiet")  # the operator, meanwhile

    def wait(running, *, minutes, interrupt, allowed):
        seen.append(interrupt())
        return "quiet"

    assert serve.serve(data, stick, install_fn=install, reboot_fn=lambda d: True, wait=wait,
                       window="03:00-05:00", say=lambda _l: None) == 0
    assert seen == [False]
    assert requests.take(data, stick) == requests.Request("install", stick, "when-quiet")
