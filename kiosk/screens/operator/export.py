"""The Export page: the play log's plays and moves, as CSV, onto a USB stick; the copy runs
in a thread and the page shows its progress and result."""

from __future__ import annotations

import logging
import threading
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout

from kiosk.records import export as export_mod

from .page import AMBER, GREEN_OK, Page

log = logging.getLogger("kiosk.operator")


class ExportPage(Page):
    name = "export"
    title = "Export"

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        #: the copy under way or last done (kept while the app runs)
        self.state: dict[str, Any] = {"running": False, "line": "", "result": "",
                                      "error": False}
        self.thread: threading.Thread | None = None

    def build(self, body: BoxLayout, u: float) -> None:
        """In a list like the other pages: the explanation, the button and the result
        stay inside the panel in every language and size (the Russian text pushed the first
        line above it)."""
        tr = self.app.tr
        col = self.column(u)
        col.spacing = 10 * u
        col.add_widget(self.text(tr("Copies every game played (plays.csv) and every move "
                                    "(moves.csv) to a USB stick."), u))
        col.add_widget(self.text(tr("Use a stick formatted as FAT32 or exFAT. The files go "
                                    "into a folder named after this kiosk and the time."),
                                 u, size=15, color=(1, 1, 1, 0.65)))
        st = self.state
        button = self.button(tr("Export to the USB stick"), u, self.start_export, height=70,
                             size=22)
        button.disabled = st["running"]
        button.opacity = 0.5 if st["running"] else 1
        col.add_widget(button)
        line = self.text(st["line"], u, color=(1, 1, 1, 0.9))
        result = self.text(st["result"], u, size=18, color=AMBER if st["error"] else GREEN_OK,
                           bold=True)
        col.add_widget(line)
        col.add_widget(result)
        body.add_widget(self.scroll(col, u))
        self.widgets["export_line"] = line
        self.widgets["export_result"] = result

    def start_export(self) -> None:
        st = self.state
        if st["running"]:
            return
        app, tr = self.app, self.app.tr
        st.update(running=True, line=tr("Looking for a USB stick…"), result="", error=False)
        self.redraw()
        db = app.log_path()
        cfg = app.cfg

        def progress(done: int, total: int) -> None:
            Clock.schedule_once(lambda _dt: self._progress(done, total), 0)

        def work() -> None:
            try:
                if db is None:
                    raise export_mod.ExportError("The play log is not available.")
                res = export_mod.export_to_usb(db, configured=cfg.export.usb_mount,
                                               kiosk_name=cfg.name, progress=progress)
                outcome: tuple[bool, Any] = (True, res)
            except export_mod.ExportError as err:
                outcome = (False, str(err))
            except Exception as err:  # noqa: BLE001 - never a traceback on the screen
                log.exception("export failed")
                outcome = (False, f"Export failed: {err}")
            Clock.schedule_once(lambda _dt: self._done(*outcome), 0)

        app.flush_log()
        self.thread = threading.Thread(target=work, name="kiosk-export", daemon=True)
        self.thread.start()

    def _progress(self, done: int, total: int) -> None:
        st = self.state
        st["line"] = self.app.trn("Writing… {done} of {n} row", "Writing… {done} of {n} rows",
                                  total, done=done)
        lab = self.widgets.get("export_line")
        if lab is not None:
            lab.text = st["line"]

    def _done(self, ok: bool, result: Any) -> None:
        st = self.state
        st["running"] = False
        if ok:
            st["rows"] = result.rows
            st["line"] = str(result.directory)
            st["result"] = self.app.trn("Done: {n} row written. You can take the stick out now.",
                                        "Done: {n} rows written. You can take the stick out now.",
                                        result.rows)
            st["error"] = False
        else:
            st["line"] = ""
            st["result"] = self.app.tr_reason(str(result))
            st["error"] = True
        if self.showing:
            self.redraw()


PAGE = ExportPage
