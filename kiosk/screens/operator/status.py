"""The Status page: the play log, the fleet's sync (when configured), the hardware buttons,
the configuration and its problems, the version."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from kiosk import __version__

from .page import AMBER, GREEN_OK, Page


class StatusPage(Page):
    name = "status"
    title = "Status"

    def build(self, body: BoxLayout, u: float) -> None:
        app, tr = self.app, self.app.tr
        col = self.column(u)

        def item(label: str, value: str, color=(1, 1, 1, 0.95), path: bool = False) -> None:
            col.add_widget(self.text(label, u, size=15, color=(1, 1, 1, 0.6), bold=True))
            text = self.path_text if path else self.text
            col.add_widget(text(value, u, color=color))

        status = app.log_status()
        if status is None:
            item(tr("Play log"), tr("Not in use."), AMBER)
        else:
            state = tr("OK") if status.ok else tr("Degraded")
            text = app.translator.sentences(status.parts) if status.parts else \
                app.tr_reason(status.message)
            item(tr("Play log"), f"{state}: {text}",
                 GREEN_OK if status.ok else AMBER)
            for note in status.notes:
                col.add_widget(self.text(app.tr_reason(note), u, color=AMBER))
            col.add_widget(self.path_text(str(app.lobby.playlog.path), u, size=14,
                                          color=(1, 1, 1, 0.6)))
        from kiosk.fleet import status_panel  # the fleet's lines (issue 26), when configured

        status_panel.add_to(self, col, u, GREEN_OK, AMBER)
        buttons = app.lobby.buttons
        if buttons is not None and buttons.available:
            item(tr("Hardware buttons"), tr("Connected."), GREEN_OK)
        else:
            item(tr("Hardware buttons"),
                 tr("Not available: the keys N and U do their jobs."), AMBER)
        cfg = app.cfg
        source = str(cfg.path) if cfg.path else tr("Built-in defaults")
        problems = app.config_problems()
        item(tr("Configuration"), source, path=True)
        if problems:
            col.add_widget(self.text(app.trn("{n} problem; the default is used for this key:",
                                             "{n} problems; the defaults are used for these "
                                             "keys:", len(problems)), u, color=AMBER))
            for problem in problems:
                col.add_widget(self.path_text("• " + problem, u, size=15, color=AMBER))
        else:
            col.add_widget(self.text(tr("No problems."), u, color=GREEN_OK))
        item(tr("Version"), __version__)
        body.add_widget(self.scroll(col, u))
        self.widgets["problems"] = problems


PAGE = StatusPage
