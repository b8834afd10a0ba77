"""The USB stick as the operator page sees it (kiosk/updates/stick.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.updates import bundle as bundles
from kiosk.updates.stick import find_bundles, offer

from .conftest import COMPATIBLE, host_conf, small_bundle

V1 = "0.1.0+20251206.120000"
V2 = "0.1.0+20251207.090000"
V3 = "0.1.0+20251208.090000"


@pytest.fixture(scope="module")
def stick(tmp_path_factory: pytest.TempPathFactory, keys: Path, other_keys: Path):
    usb = tmp_path_factory.mktemp("usb")
    small_bundle(usb / "a-update.raucb", V2, keys)
    small_bundle(usb / "b-update.raucb", V3, keys)
    small_bundle(usb / "c-other-office.raucb", V3, other_keys)
    (usb / "notes.txt").write_text("not a bundle")
    (usb / "solitaire-kiosk").mkdir()
    return usb, host_conf(tmp_path_factory.mktemp("conf") / "system.conf",
                          keys / "ca.cert.pem")


def checker(conf: Path, running: str):
    return lambda path: bundles.check(path, running=running, compatible=COMPATIBLE,
                                      conf=conf)


def test_the_page_offers_the_newest_bundle_it_may_install(stick):
    usb, conf = stick
    assert [p.name for p in find_bundles(usb)] == ["a-update.raucb", "b-update.raucb",
                                                   "c-other-office.raucb"]
    o = offer(usb, check=checker(conf, V1))
    assert o.path.name == "b-update.raucb" and o.info.version == V3 and o.installable


def test_a_stick_of_refused_bundles_shows_the_first_reason(stick, tmp_path: Path):
    usb, conf = stick
    o = offer(usb, check=checker(conf, "0.2.0+20250101.000000"))
    assert o.info is None and not o.installable
    assert o.refusal.startswith("a-update.raucb: version ") and "older than the running" in \
        o.refusal


def test_the_running_version_is_not_offered_again(stick):
    usb, conf = stick
    o = offer(usb, check=checker(conf, V3))
    assert o.info.relation == "same" and not o.installable


def test_no_bundle_no_offer(tmp_path: Path):
    assert offer(tmp_path) is None
    assert offer(tmp_path / "not-mounted") is None
