"""The fleet's lines on the Status page, drawn: the last sync, the rows waiting, the rows
the centre refused, "Sync now" and, under it, how the last pass went, in the operator's
language (:mod:`kiosk.fleet.status_panel` says what; this module draws it).

"Sync now" answers in place: the button says "Syncing…" while the pass runs (the rows
waiting count down as its batches are confirmed) and the page shows the outcome as soon as
the pass's status file changes, without leaving the page.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from games.engine.reason import Reason
from kiosk.fleet import status_panel as panel

log = logging.getLogger("kiosk.fleet")

#: how often a running pass is looked at (a stat of one file, the rows waiting counted)
POLL_SECONDS = 1.0
#: the button while its pass runs: no longer the gold of an action
SYNCING_BG = (1, 1, 1, 0.12)


class FleetLines:
    """The fleet's part of the Status page and the pass its "Sync now" started."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.watch: panel.SyncWatch | None = None
        #: how the pass the operator started ended (a SyncWatch outcome, or "not started")
        self.outcome: str | None = None
        self._tick: Any = None

    @property
    def running(self) -> bool:
        return self.watch is not None

    def reset(self) -> None:
        """The menu was opened: an old outcome is not news; a pass still running is."""
        self.outcome = None

    # ------------------------------------------------------------------ drawing
    def add_to(self, col: BoxLayout, u: float, ok_color: Any, warn_color: Any) -> None:
        """The lines and the button, added to the Status page's column ``col``; nothing
        when this kiosk is not part of a fleet."""
        page, app = self.page, self.page.app
        cfg = app.cfg
        if getattr(cfg, "fleet", None) is None:
            return
        tr = app.tr
        st = panel.read_status(cfg)
        col.add_widget(page.text(tr("Fleet sync"), u, size=15, color=(1, 1, 1, 0.6),
                                 bold=True))
        last = tr("Last sync: {when}", when=panel.when(st.last_ok)) if st.last_ok else \
            tr("Last sync: never")
        col.add_widget(page.text(last, u, color=ok_color if st.last_ok else warn_color))
        if st.waiting is not None:
            waiting = page.text(tr("Rows waiting: {n}", n=st.waiting), u)
            col.add_widget(waiting)
            page.widgets["fleet_waiting"] = waiting
        if st.set_aside:
            col.add_widget(page.text(app.trn(
                "The central database refused {n} row. It is kept on this kiosk for the "
                "office to look at; everything else was sent.",
                "The central database refused {n} rows. They are kept on this kiosk for the "
                "office to look at; everything else was sent.", st.set_aside), u, size=15,
                color=warn_color))
        button = page.button(tr("Syncing…") if self.running else tr("Sync now"), u,
                             self.sync_now)
        if self.running:  # not a button while the pass runs, but its words must read
            button.disabled = True
            button.bg, button.disabled_color = SYNCING_BG, (1, 1, 1, 0.95)
        col.add_widget(button)
        page.widgets["fleet_sync_now"] = button
        lines = [] if self.running else self._outcome_lines(st, ok_color, warn_color)
        for text, color, bold in lines:
            col.add_widget(page.text(text, u, size=15 if not bold else 17, color=color,
                                     bold=bold))
        page.widgets["fleet_outcome"] = [text for text, _c, _b in lines]

    def _outcome_lines(self, st: panel.FleetStatus, ok_color: Any,
                       warn_color: Any) -> list[tuple[str, Any, bool]]:
        """Under the button: what went wrong last (whoever started the pass), else how the
        operator's own pass went."""
        app = self.page.app
        tr = app.tr
        if self.outcome == "not started":
            return [(tr("The sync could not be started."), warn_color, True)]
        if self.outcome == panel.SyncWatch.NO_RESULT:
            return [(tr("The sync ended without a result."), warn_color, True),
                    (tr(panel.ADVICE_UNKNOWN), warn_color, False)]
        if self.outcome == panel.SyncWatch.TIMEOUT:
            return [(tr("No result after {minutes} minutes: the sync may still be running. "
                        "Open this page again later.",
                        minutes=round(panel.WATCH_SECONDS / 60)), warn_color, True)]
        if st.last_error:
            head = tr("The last sync failed ({when}).", when=panel.when(st.last_attempt)) \
                if st.last_attempt else tr("The last sync failed.")
            # the kind says what to do; the pass's own line (the server's words) stays in
            # the journal, in English, where the office reads it
            what = app.translator.sentences([Reason(panel.advice(st.last_error_kind),
                                                    now=panel.now_text()), panel.KEPT])
            return [(head, warn_color, True), (what, warn_color, False)]
        if self.outcome == panel.SyncWatch.DONE:
            text = app.trn("Sync done: {n} play sent.", "Sync done: {n} plays sent.",
                           st.sent_plays) if st.sent_plays else \
                tr("Sync done: no new plays to send.")
            return [(text, ok_color, True)]
        return []

    # ------------------------------------------------------------------ the pass
    def sync_now(self) -> None:
        if self.running:
            return
        cfg = self.page.app.cfg
        try:
            child = panel.request_sync(cfg)
        except OSError as err:
            log.error("Sync now: %s", err)
            self.outcome = "not started"
            self.page.redraw()
            return
        self.watch = panel.SyncWatch(cfg.existing_db_path().parent, child)
        self.outcome = None
        self._tick = Clock.schedule_interval(self._poll, POLL_SECONDS)
        self.page.redraw()

    def _poll(self, _dt: float) -> None:
        watch = self.watch
        if watch is None:
            return
        result = watch.check()
        if result == panel.SyncWatch.RUNNING:
            label = self.page.widgets.get("fleet_waiting")
            if label is not None and self.page.showing:
                waiting = panel.read_status(self.page.app.cfg).waiting
                if waiting is not None:
                    label.text = self.page.app.tr("Rows waiting: {n}", n=waiting)
            return
        self._tick.cancel()
        self._tick = None
        self.watch = None
        self.outcome = result
        if self.page.showing:
            self.page.redraw()
