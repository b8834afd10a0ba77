"""kiosk.platform.systemd_notify without Kivy: the datagrams, the watchdog interval, the freeze hook."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from kiosk.platform import systemd_notify as sn


@pytest.fixture
def listener(tmp_path: Path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def test_notify_sends_one_datagram_to_a_path_socket(listener):
    path, sock = listener
    assert sn.notify("READY=1\nSTATUS=Running", {"NOTIFY_SOCKET": path})
    assert sock.recv(4096) == b"READY=1\nSTATUS=Running"


def test_notify_reaches_an_abstract_socket():
    name = f"solitaire-kiosk-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert sn.notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"WATCHDOG=1"
    finally:
        sock.close()


@pytest.mark.parametrize("value", [None, "", "@", "relative/path", "vsock:2:1234"])
def test_without_a_usable_socket_notify_does_nothing(value):
    env = {} if value is None else {"NOTIFY_SOCKET": value}
    assert sn.socket_address(env) is None
    assert sn.notify("READY=1", env) is False


def test_a_vanished_supervisor_is_logged_not_raised(tmp_path: Path, caplog):
    assert sn.notify("WATCHDOG=1", {"NOTIFY_SOCKET": str(tmp_path / "gone.sock")}) is False
    assert "sd_notify" in caplog.text


@pytest.mark.parametrize(("env", "expected"), [
    ({}, None),
    ({"WATCHDOG_USEC": "30000000"}, 15.0),
    ({"WATCHDOG_USEC": "1000000"}, 0.5),
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "soon"}, None),
    ({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}, None),
    ({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid())}, 0.5),
])
def test_pings_come_at_half_the_watchdog_interval(env, expected):
    assert sn.watchdog_interval(env) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (None, None), ("", None), ("4", 4.0), ("0.5", 0.5), ("-3", 0.0), ("later", None),
])
def test_freeze_hook_parsing(value, expected):
    env = {} if value is None else {sn.FREEZE_ENV: value}
    assert sn.freeze_after(env) == expected


class _FakeApp:
    def __init__(self) -> None:
        self.bound: dict = {}

    def bind(self, **handlers) -> None:
        self.bound.update(handlers)


def test_attach_does_nothing_outside_systemd():
    app = _FakeApp()
    assert sn.attach(app, {}) is None
    assert app.bound == {}


def test_attach_hooks_start_and_stop_and_keeps_the_notifier_alive(listener):
    path, _ = listener
    app = _FakeApp()
    notifier = sn.attach(app, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    assert notifier is not None and notifier.interval == 1.0
    assert set(app.bound) == {"on_start", "on_stop"}
    # Kivy holds bound methods weakly: the app must hold the notifier.
    assert app.systemd_notifier is notifier


def test_stop_says_stopping(listener):
    path, sock = listener
    notifier = sn.Notifier({"NOTIFY_SOCKET": path})
    notifier.on_stop()
    assert sock.recv(4096).startswith(b"STOPPING=1")
