"""Every state of the operator menu's Software update page, set up without RAUC or a stick
(the page's own looking is stood in for): for the text-fit test of every page and for the
screenshots of the page."""

from __future__ import annotations

from pathlib import Path

from games.engine.reason import Reason
from kiosk.screens.operator import update as page_mod
from kiosk.updates import bundle as bundles
from kiosk.updates import slots, stick
from kiosk.updates.status import UpdateStatus

RUNNING = "0.1.0+20261206.222956"
NEWER = "0.1.0+20261207.080000"
ON_A = slots.Slots("A", "A", "B", "", {"A": "good", "B": "bad"})
TRIAL = slots.Slots("B", "A", "B", "", {"A": "good", "B": "bad"})
STICK = Path("/media/usb/solitaire-kiosk-0.1.0-20261207.raucb")


def _offer(relation: str = "newer", version: str = NEWER) -> stick.Offer:
    return stick.Offer(STICK, info=bundles.BundleInfo(STICK, "solitaire-kiosk-rpi-arm64",
                                                      version, "", 1, RUNNING, relation))


REFUSED = stick.Offer(STICK.with_name("kiosk-update-from-another-office.raucb"),
                      refusal="…", reason=Reason(bundles.UNTRUSTED))
OLDER = stick.Offer(STICK, refusal="…", reason=Reason(
    bundles.OLDER, version="0.1.0+20251101.090000", running=RUNNING))


def update_page_states(ui, monkeypatch) -> list[tuple[str, object]]:
    """(name, set-up) of each state; the page does not look by itself meanwhile."""
    app = ui.app
    menu = app.operator
    page = menu.pages["update"]
    monkeypatch.setattr(page, "_refresh", lambda: False)
    monkeypatch.setattr(page, "_look_if_changed", lambda: None)
    monkeypatch.setattr(page_mod.versions, "running_version", lambda *a: RUNNING)

    def state(slots_now, offer, status=None, note="", looking=False):
        def show():
            page.seen = page_mod.Seen(slots_now, "", offer)
            page.status = status
            page.note = note
            app.show_operator("update")
            # a look at a stick under way (its files as the page saw them), or none; after
            # show_operator, whose reset forgets the stick
            page._looking, page._stick_key = looking, (("kiosk.raucb", 1, 0.0),) if looking else ()
            menu.rebuild()
        return show

    def st(name: str, **kw) -> UpdateStatus:
        return UpdateStatus(name, version=NEWER, from_version=RUNNING, slot="B", **kw)

    return [
        ("update no stick", state(ON_A, None)),
        ("update offer", state(ON_A, _offer())),
        ("update checking", state(ON_A, REFUSED, looking=True)),
        ("update same", state(ON_A, _offer("same", RUNNING))),
        ("update refused", state(ON_A, REFUSED)),
        ("update older", state(ON_A, OLDER)),
        ("update asked", state(ON_A, _offer(), note=app.tr("Starting the install…"))),
        ("update installing", state(ON_A, _offer(), st("installing", percent=63))),
        ("update installed", state(ON_A, _offer(), st("installed", percent=100))),
        ("update rebooting", state(ON_A, None, st("rebooting"))),
        ("update trying", state(TRIAL, None, st("trying"))),
        ("update committed", state(ON_A, None, st("committed"))),
        ("update rolled back", state(ON_A, None, st("rolled-back"))),
        ("update failed", state(ON_A, None, st("failed", message=(
            "the install of 0.1.0+20261207.080000 failed: Installation error: Failed "
            "writing slot rootfs.1; the kiosk runs as before")))),
        ("update not the image", state(None, None)),
    ]
