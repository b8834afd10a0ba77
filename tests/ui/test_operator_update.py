"""The operator menu's Software update page, touched as an operator would: what it shows for
the stick and the status file, and the requests its buttons leave for the root unit
(kiosk/updates/requests.py). RAUC and the slots are stood in for: the page's thread asks
kiosk.updates.slots and kiosk.updates.stick, which the tests replace."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from games.engine.reason import Reason
from kiosk.screens.operator import update as page_mod
from kiosk.updates import bundle as bundles
from kiosk.updates import requests, slots, stick
from kiosk.updates import status as status_mod

RUNNING = "0.1.0+20261206.222956"
NEWER = "0.1.0+20261207.080000"
ON_A = slots.Slots("A", "A", "B", "", {"A": "good", "B": "bad"})


def offer_of(path: Path, version: str = NEWER, relation: str = "newer") -> stick.Offer:
    return stick.Offer(path, info=bundles.BundleInfo(path, "solitaire-kiosk-rpi-arm64", version,
                                                     "", 1000, RUNNING, relation))


@pytest.fixture
def update_page(ui, monkeypatch, tmp_path):
    """The page with a stick at ``tmp_path`` and the slots of a kiosk on slot A."""
    app = ui.app
    data = app.lobby_data_dir()
    state = {"offer": None, "slots": ON_A}

    def describe():
        if isinstance(state["slots"], Exception):
            raise state["slots"]
        return state["slots"]
    monkeypatch.setattr(slots, "describe", describe)
    monkeypatch.setattr(stick, "offer", lambda mount, **kw: state["offer"])
    monkeypatch.setattr(page_mod.versions, "running_version", lambda *a: RUNNING)
    monkeypatch.setattr(page_mod.UpdatePage, "_stick_signature",
                        lambda self: (str(state["offer"]), str(state["slots"])))
    for name in (requests.REQUEST_NAME, status_mod.STATUS_NAME):
        (data / name).unlink(missing_ok=True)
    page = app.operator.pages["update"]
    page.seen, page.status, page._stick_key = None, None, ()

    def show(offer=None, slots_now=ON_A):
        state["offer"], state["slots"] = offer, slots_now
        app.show_operator("update")
        assert ui.until(lambda: page.seen is not None and not page._looking
                        and page.seen.offer == offer, 10)
        ui.frames(3)
        return page
    try:
        yield show, data
    finally:
        for name in (requests.REQUEST_NAME, status_mod.STATUS_NAME):
            (data / name).unlink(missing_ok=True)
        app.go_welcome()


def texts(ui) -> str:
    return " | ".join(str(w.text) for w in ui.app.operator.panel.walk()
                      if hasattr(w, "text") and str(w.text).strip())


def test_the_page_offers_the_sticks_newer_version_and_asks_for_the_install(ui, update_page,
                                                                            tmp_path):
    show, data = update_page
    bundle = tmp_path / "kiosk-update.raucb"
    page = show(offer_of(bundle))
    shown = texts(ui)
    assert "This kiosk runs version 0.1.0 (2026-12-06 22:29)." in shown
    assert "On the stick: version 0.1.0 (2026-12-07 08:00)." in shown
    ui.tap_widget(ui.app.operator.widgets["update_install"])
    ui.frames(2)
    asked = json.loads((data / requests.REQUEST_NAME).read_text())
    assert asked == {"action": "install", "bundle": str(bundle), "reboot": "when-quiet"}
    assert "Starting the install…" in texts(ui)
    assert page.status is None


def test_a_bundle_the_kiosk_refuses_is_one_line_and_nothing_to_tap(ui, update_page, tmp_path):
    show, data = update_page
    bad = tmp_path / "other-office.raucb"
    show(stick.Offer(bad, refusal="other-office.raucb: it is not signed with a key this "
                     "kiosk trusts", reason=Reason(bundles.UNTRUSTED)))
    line = ui.app.operator.widgets["update_refusal"]
    assert line.text == ("other-office.raucb on the stick cannot be installed: it is not "
                         "signed with a key this kiosk trusts.")
    assert "update_install" not in ui.app.operator.widgets
    assert not (data / requests.REQUEST_NAME).exists()


def test_an_older_bundle_names_both_versions_as_the_page_writes_them(ui, update_page,
                                                                     tmp_path):
    """Dates, as the page's other lines (a build stamp such as 0.1.0+20261206.053641 broke
    across the line in its middle)."""
    show, _data = update_page
    older = tmp_path / "kiosk-older.raucb"
    show(stick.Offer(older, refusal="kiosk-older.raucb: version 0.1.0+20261206.053641 is "
                     "older than the running 0.1.0+20261207.053641",
                     reason=Reason(bundles.OLDER, version="0.1.0+20261206.053641",
                                   running="0.1.0+20261207.053641")))
    assert ui.app.operator.widgets["update_refusal"].text == (
        "kiosk-older.raucb on the stick cannot be installed: version 0.1.0 (2026-12-06 05:36) "
        "is older than the running 0.1.0 (2026-12-07 05:36).")


def test_the_version_running_is_not_offered_again(ui, update_page, tmp_path):
    show, _data = update_page
    show(offer_of(tmp_path / "same.raucb", RUNNING, "same"))
    assert "which this kiosk already runs" in texts(ui)
    assert "update_install" not in ui.app.operator.widgets


def test_the_install_shows_its_progress_then_restart_now(ui, update_page, tmp_path):
    show, data = update_page
    st = status_mod.UpdateStatus("installing", percent=40, version=NEWER, slot="B",
                                 from_version=RUNNING)
    status_mod.save(data, st)
    page = show(offer_of(tmp_path / "kiosk-update.raucb"))
    widgets = ui.app.operator.widgets
    assert widgets["update_bar"].percent == 40
    assert widgets["update_progress"].text == \
        "Installing version 0.1.0 (2026-12-07 08:00)… 40%"
    assert "update_install" not in widgets, "no second install while one runs"
    st.percent = 75
    status_mod.save(data, st)
    assert ui.until(lambda: widgets["update_bar"].percent == 75, 10)
    assert widgets["update_progress"].text.endswith("75%")
    st.state, st.percent = "installed", 100
    status_mod.save(data, st)
    assert ui.until(lambda: "update_restart" in ui.app.operator.widgets, 10)
    assert "restarts into it when nobody has played for 5 minutes" in texts(ui)
    ui.tap_widget(ui.app.operator.widgets["update_restart"])
    ui.frames(2)
    assert json.loads((data / requests.REQUEST_NAME).read_text()) == {"action": "reboot"}
    assert page.note == "Restarting…"


@pytest.mark.parametrize("state,words", [
    ("trying", "runs on trial: the kiosk checks itself"),
    ("committed", "Version 0.1.0 (2026-12-07 08:00) runs."),
    ("rolled-back", "went back to version 0.1.0 (2026-12-06 22:29) by itself"),
    ("failed", "The install stopped; the kiosk runs as before."),
])
def test_how_the_last_update_ended(ui, update_page, state, words):
    show, data = update_page
    status_mod.save(data, status_mod.UpdateStatus(state, version=NEWER, from_version=RUNNING,
                                                  message="detail"))
    show(None, slots.Slots("B", "A", "B", "", {}) if state == "trying" else ON_A)
    assert words in texts(ui)


@pytest.mark.parametrize("state", ["refused", "failed"])
def test_how_an_update_of_another_stick_ended_stays_with_that_stick(ui, update_page, tmp_path,
                                                                     state):
    """The older bundle was refused (or its install stopped), then the operator brought a
    stick with a newer one: the page offers it as on a first visit; the old news returns
    with the old file."""
    show, data = update_page
    older, newer = tmp_path / "kiosk-older.raucb", tmp_path / "kiosk-update.raucb"
    status_mod.save(data, status_mod.UpdateStatus(
        state, bundle=str(older), from_version=RUNNING,
        message="kiosk-older.raucb: version 0.1.0+20261206.053641 is older than the running"))
    show(offer_of(newer))
    shown = texts(ui)
    assert "kiosk-older.raucb" not in shown and "not installed" not in shown, shown
    assert "stopped" not in shown, shown
    assert "update_install" in ui.app.operator.widgets
    show(offer_of(older))
    assert "kiosk-older.raucb" in texts(ui)


def test_another_stick_is_checked_before_anything_of_the_last_one_shows(ui, update_page,
                                                                        tmp_path, monkeypatch):
    """The operator swaps sticks with the page open: while RAUC reads the new one (a minute
    under emulation) the page says it is checking, not the old stick's refusal."""
    show, _data = update_page
    older, newer = tmp_path / "kiosk-older.raucb", tmp_path / "kiosk-update.raucb"
    refused = stick.Offer(older, refusal="kiosk-older.raucb: older",
                          reason=Reason(bundles.OLDER, version="0.1.0+20261206.053641",
                                        running=RUNNING))
    page = show(refused)
    assert "update_refusal" in ui.app.operator.widgets
    reading = threading.Event()
    monkeypatch.setattr(stick, "offer", lambda mount, **kw: (reading.wait(10), offer_of(newer))[1])
    monkeypatch.setattr(page_mod.UpdatePage, "_stick_signature", lambda self: ("newer stick",))
    assert ui.until(lambda: page._looking, 10)
    ui.frames(3)
    assert "Checking the update on the stick…" in texts(ui)
    assert "kiosk-older.raucb" not in texts(ui)
    assert "update_refusal" not in ui.app.operator.widgets
    assert "update_install" not in ui.app.operator.widgets
    reading.set()
    assert ui.until(lambda: "update_install" in ui.app.operator.widgets, 10)


def test_off_the_kiosks_image_the_page_says_so(ui, update_page):
    show, _data = update_page
    show(None, slots.SlotError("no /boot/bootfs/autoboot.txt"))
    assert "Software updates work on the kiosk's own SD card image only." in texts(ui)
    assert "update_install" not in ui.app.operator.widgets


def test_the_page_stops_looking_when_it_is_left(ui, update_page, tmp_path):
    show, _data = update_page
    page = show(offer_of(tmp_path / "kiosk-update.raucb"))
    assert page._tick is not None
    ui.app.show_operator("stats")
    ui.wait(page_mod.POLL_SECONDS + 0.5)
    assert page._tick is None
