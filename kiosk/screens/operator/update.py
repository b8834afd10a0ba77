"""The Software update page: the version the kiosk runs, the update on a USB stick (RAUC
checks it against the kiosk's keyring: one line when it may not be installed), Install, the
install's progress, and the restart into the new version, when nobody plays or now.

The app may not write the card's slots (it runs unprivileged, without network): Install and
Restart now leave a request in the data directory for solitaire-kiosk-update.service, and
the page follows the install in ``update-status.json`` (:mod:`kiosk.updates`). The stick's
check and the slots' state are read in a thread; the page looks again every two seconds
while it is shown (the status file, and whether the stick's files changed).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from games.engine.reason import Reason
from kiosk.updates import quiet, requests, slots, stick
from kiosk.updates import status as status_mod
from kiosk.updates import version as versions

from .page import AMBER, GREEN_OK, Page

log = logging.getLogger("kiosk.operator")

POLL_SECONDS = 2.0
DIM = (1, 1, 1, 0.65)


class Bar(Widget):
    """A progress bar in the menu's colours (0-100)."""

    def __init__(self, percent: int, u: float, **kw: Any) -> None:
        super().__init__(size_hint_y=None, height=26 * u, **kw)
        self.percent = percent
        with self.canvas:
            Color(1, 1, 1, 0.15)
            self._back = Rectangle()
            Color(0.98, 0.76, 0.25, 1)
            self._fill = Rectangle()
        self.bind(pos=self._draw, size=self._draw)

    def set(self, percent: int) -> None:
        self.percent = max(0, min(100, percent))
        self._draw()

    def _draw(self, *_a: Any) -> None:
        self._back.pos, self._back.size = self.pos, self.size
        self._fill.pos = self.pos
        self._fill.size = (self.width * self.percent / 100, self.height)


def pretty(version: str | None) -> str:
    """``0.1.0+20261206.222956`` as an operator reads it: ``0.1.0 (2026-12-06 22:29)``."""
    if not version:
        return "?"
    try:
        v = versions.parse(version)
    except versions.VersionError:
        return version
    b = v.built
    return (f"{'.'.join(map(str, v.app))} "
            f"({b[0:4]}-{b[4:6]}-{b[6:8]} {b[8:10]}:{b[10:12]})")


@dataclass(frozen=True)
class Seen:
    """What the thread found: the slots (or why there are none) and the stick's offer."""
    slots: slots.Slots | None
    no_slots: str
    offer: stick.Offer | None


class UpdatePage(Page):
    name = "update"
    title = "Software update"

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.seen: Seen | None = None
        self.status: status_mod.UpdateStatus | None = None
        self.note = ""
        self._stick_key: tuple = ()
        self._looking = False
        self._tick: Any = None

    def reset(self) -> None:
        self.note = ""
        self._stick_key = ()      # the stick may have changed while the menu was closed

    # ------------------------------------------------------------------ what it shows
    def build(self, body: BoxLayout, u: float) -> None:
        tr = self.app.tr
        if self._tick is None:
            self._tick = Clock.schedule_interval(self._poll, POLL_SECONDS)
        self._refresh()
        self._look_if_changed()
        col = self.column(u)
        col.spacing = 10 * u
        seen = self.seen
        running = versions.running_version()
        col.add_widget(self.text(tr("This kiosk runs version {version}.",
                                    version=pretty(running)), u, size=18, bold=True))
        if seen is None:
            col.add_widget(self.text(tr("Looking for updates…"), u, color=DIM))
        elif seen.slots is None:
            col.add_widget(self.text(tr("Software updates work on the kiosk's own SD card "
                                        "image only."), u, color=AMBER))
        else:
            self._status_lines(col, u)
            self._stick_lines(col, u)
        if self.note:
            col.add_widget(self.text(self.note, u, color=DIM))
        body.add_widget(self.scroll(col, u))

    def _status_lines(self, col: BoxLayout, u: float) -> None:
        tr, st = self.app.tr, self.status
        if st is None or st.state == "checking" or self._of_another_bundle(st):
            return
        version = pretty(st.version)
        if st.state == "installing":
            line = self.text(self._progress_text(st), u)
            col.add_widget(line)
            bar = Bar(st.percent or 0, u)
            col.add_widget(bar)
            col.add_widget(self.text(tr("Visitors can keep playing meanwhile."), u, size=15,
                                     color=DIM))
            self.widgets["update_progress"] = line
            self.widgets["update_bar"] = bar
        elif st.state == "installed":
            minutes = f"{quiet.QUIET_MINUTES:g}"
            col.add_widget(self.text(tr(
                "Version {version} is installed. The kiosk restarts into it when nobody has "
                "played for {minutes} minutes.", version=version, minutes=minutes), u,
                color=GREEN_OK))
            col.add_widget(self.text(tr("You can take the stick out now."), u, size=15,
                                     color=DIM))
            restart = self.button(tr("Restart now"), u, self.restart_now, height=66, size=21)
            col.add_widget(restart)
            self.widgets["update_restart"] = restart
        elif st.state == "rebooting":
            col.add_widget(self.text(tr("Restarting into version {version}…",
                                        version=version), u, color=GREEN_OK))
        elif st.state == "trying":
            col.add_widget(self.text(tr("Version {version} runs on trial: the kiosk checks "
                                        "itself for about two minutes.", version=version), u))
        elif st.state == "committed":
            col.add_widget(self.text(tr("Version {version} runs.", version=version), u,
                                     color=GREEN_OK, bold=True))
        elif st.state == "rolled-back":
            col.add_widget(self.text(tr(
                "Version {version} did not run well; the kiosk went back to version "
                "{previous} by itself. It works as before.", version=version,
                previous=pretty(st.from_version)), u, color=AMBER, bold=True))
        elif st.state == "failed":
            col.add_widget(self.text(tr("The install stopped; the kiosk runs as before."), u,
                                     color=AMBER, bold=True))
            col.add_widget(self.text(st.message, u, size=14, color=DIM))
        elif st.state == "refused":
            col.add_widget(self.text(tr("The update was not installed."), u, color=AMBER,
                                     bold=True))
            col.add_widget(self.text(st.message, u, size=14, color=DIM))

    def _of_another_bundle(self, st: status_mod.UpdateStatus) -> bool:
        """A refusal or a stopped install of a file that is not the stick's offer now: the
        operator has brought another stick, and the old lines would only stand above the
        new offer (and move its Install button) with news of a file no longer there."""
        offer = self.seen.offer if self.seen is not None else None
        return (st.state in ("refused", "failed") and offer is not None
                and st.bundle is not None and Path(st.bundle) != offer.path)

    def _stick_lines(self, col: BoxLayout, u: float) -> None:
        tr = self.app.tr
        seen, st = self.seen, self.status
        assert seen is not None and seen.slots is not None
        if seen.slots.on_trial or (st is not None and st.state in status_mod.BUSY):
            return      # the update under way is what the page is about
        offer = seen.offer
        if self._looking and self._stick_key:
            # what was found before is of the stick as it was (another stick, or none)
            col.add_widget(self.text(tr("Checking the update on the stick…"), u, color=DIM))
            return
        if offer is None:
            col.add_widget(self.text(tr("To update this kiosk, plug in a USB stick with an "
                                        "update file (.raucb) from your office."), u))
            return
        if offer.refusal is not None:
            line = self.text(tr("{file} on the stick cannot be installed: {reason}.",
                                file=offer.path.name, reason=self._reason(offer)), u,
                             color=AMBER)
            col.add_widget(line)
            self.widgets["update_refusal"] = line
            return
        info = offer.info
        assert info is not None
        if info.relation == "same":
            col.add_widget(self.text(tr("The stick holds version {version}, which this kiosk "
                                        "already runs.", version=pretty(info.version)), u))
            return
        col.add_widget(self.text(tr("On the stick: version {version}.",
                                    version=pretty(info.version)), u, size=18))
        install = self.button(tr("Install version {version}", version=pretty(info.version)),
                              u, self.install, height=70, size=22)
        col.add_widget(install)
        col.add_widget(self.text(tr("The kiosk keeps the play log, the settings and the PIN. "
                                    "If the new version does not run well, the kiosk goes "
                                    "back to this one by itself."), u, size=15, color=DIM))
        self.widgets["update_install"] = install

    def _reason(self, offer: stick.Offer) -> str:
        """The refusal's reason in the kiosk's language (the line after the file's name)."""
        if offer.reason is not None:
            # versions as the rest of the page writes them (0.1.0 (2026-12-06 05:36)), not
            # the build stamp that breaks across lines in the middle
            fields = {k: pretty(v) if k in ("version", "running") else v
                      for k, v in offer.reason.fields.items()}
            reason = Reason(offer.reason.msgid, **fields)
            return str(self.app.tr_reason(reason)).rstrip(".")
        return (offer.refusal or "").split(": ", 1)[-1].rstrip(".")

    def _progress_text(self, st: status_mod.UpdateStatus) -> str:
        return self.app.tr("Installing version {version}… {percent}%",
                           version=pretty(st.version), percent=st.percent or 0)

    # ------------------------------------------------------------------ what it does
    def install(self) -> None:
        seen = self.seen
        data_dir = self.app.lobby_data_dir()
        if seen is None or seen.offer is None or seen.offer.info is None or data_dir is None:
            return
        try:
            requests.request_install(Path(data_dir), seen.offer.path, "when-quiet")
        except OSError as err:
            log.error("cannot ask for the install: %s", err)
            self.note = self.app.tr("The install could not be started.")
        else:
            self.note = self.app.tr("Starting the install…")
            self.status = None
        self.redraw()

    def restart_now(self) -> None:
        data_dir = self.app.lobby_data_dir()
        if data_dir is None:
            return
        try:
            requests.request_reboot(Path(data_dir))
        except OSError as err:
            log.error("cannot ask for the restart: %s", err)
            self.note = self.app.tr("The restart could not be started.")
        else:
            self.note = self.app.tr("Restarting…")
        self.redraw()

    # ------------------------------------------------------------------ looking
    def _poll(self, _dt: float) -> None:
        """Every two seconds while the page is shown: the status file, the stick."""
        if not self.showing or self.screen.manager is None or \
                self.screen.manager.current != self.screen.name:
            if self._tick is not None:
                self._tick.cancel()
                self._tick = None
            return
        before = self.status
        if self._refresh():
            st = self.status
            if st is not None and before is not None and st.state == before.state == \
                    "installing" and "update_bar" in self.widgets:
                self.widgets["update_bar"].set(st.percent or 0)
                self.widgets["update_progress"].text = self._progress_text(st)
            else:
                if st is not None and st.state != "checking":
                    self.note = ""
                self.redraw()
        if self._look_if_changed():
            self.redraw()       # "Checking the update on the stick…" instead of the last one

    def _refresh(self) -> bool:
        """Read the status file; True when it changed."""
        data_dir = self.app.lobby_data_dir()
        st = status_mod.load(Path(data_dir)) if data_dir is not None else None
        old = self.status
        self.status = st
        if st is None or old is None:
            return (st is None) != (old is None)
        return (st.state, st.version, st.percent, st.updated) != \
            (old.state, old.version, old.percent, old.updated)

    def _look_if_changed(self) -> bool:
        """A look at the slots and the stick when the stick's files changed; True if one
        started."""
        key = self._stick_signature()
        if key == self._stick_key or self._looking:
            return False
        self._stick_key = key
        self._looking = True
        threading.Thread(target=self._look, name="kiosk-update-look", daemon=True).start()
        return True

    def _stick_signature(self) -> tuple:
        mount = Path(self.app.cfg.export.usb_mount)
        out = []
        for path in stick.find_bundles(mount):
            try:
                st = path.stat()
            except OSError:
                continue
            out.append((path.name, st.st_size, st.st_mtime))
        return tuple(out)

    def _look(self) -> None:
        """In a thread: the slots and the stick's offer (rauc info), then a redraw."""
        try:
            try:
                found: slots.Slots | None = slots.describe()
                why = ""
            except slots.SlotError as err:
                found, why = None, str(err)
            offer = stick.offer(Path(self.app.cfg.export.usb_mount)) if found else None
            seen = Seen(found, why, offer)
        except Exception:  # noqa: BLE001 - a page, never a traceback on the screen
            log.exception("looking for updates failed")
            seen = Seen(None, "failed", None)
        Clock.schedule_once(lambda _dt: self._looked(seen), 0)

    def _looked(self, seen: Seen) -> None:
        self._looking = False
        self.seen = seen
        if self.showing:
            self.redraw()


PAGE = UpdatePage
