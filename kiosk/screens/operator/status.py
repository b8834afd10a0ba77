"""The Status page: the play log, the fleet's sync (when configured), the hardware buttons,
the configuration and its problems, the version."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk import __version__
from kiosk.platform.buttons import NEW_DEAL, UNDO
from kiosk.settings.problem import translatable

from .page import AMBER, GREEN_OK, Page
from .status_fleet import FleetLines


class StatusPage(Page):
    name = "status"
    title = "Status"

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        #: the fleet's lines (issue 26), when this kiosk is part of a fleet
        self.fleet = FleetLines(self)

    def reset(self) -> None:
        self.fleet.reset()

    def build(self, body: BoxLayout, u: float) -> None:
        app, tr = self.app, self.app.tr
        col = self.column(u)

        def item(label: str, value: str, color=(1, 1, 1, 0.95)) -> None:
            col.add_widget(self.text(label, u, size=15, color=(1, 1, 1, 0.6), bold=True))
            col.add_widget(self.text(value, u, color=color))

        status = app.log_status()
        if status is None:
            item(tr("Play log"), tr("Not in use."), AMBER)
        else:
            text = app.translator.sentences(status.parts) if status.parts else \
                app.tr_reason(status.message)
            # "The play log is working." says it all; "OK" was the keypad's "确定" in Chinese
            item(tr("Play log"), text if status.ok else
                 tr("{state}: {text}", state=tr("Degraded"), text=text),
                 GREEN_OK if status.ok else AMBER)
            for note in status.notes:
                col.add_widget(self.text(app.tr_reason(note), u, color=AMBER))
            col.add_widget(self.text(str(app.lobby.playlog.path), u, size=14,
                                     color=(1, 1, 1, 0.6)))
        self.fleet.add_to(col, u, GREEN_OK, AMBER)
        self.buttons(col, u, item)
        cfg = app.cfg
        source = str(cfg.path) if cfg.path else tr("Built-in defaults")
        problems = app.config_problems()
        item(tr("Configuration"), source)
        if problems:
            col.add_widget(self.text(app.trn("{n} problem; the default is used for this key:",
                                             "{n} problems; the defaults are used for these "
                                             "keys:", len(problems)), u, color=AMBER))
            for problem in problems:  # in the operator's language; `config check`: English
                col.add_widget(self.text("• " + app.tr_reason(translatable(problem)), u,
                                         size=15, color=AMBER))
        else:
            col.add_widget(self.text(tr("No problems."), u, color=GREEN_OK))
        item(tr("Version"), __version__)
        body.add_widget(self.scroll(col, u))
        self.widgets["problems"] = problems


    def buttons(self, col: BoxLayout, u: float, item) -> None:
        """Connected (on which pins, of which chip), or why not in the sentence the journal
        has too; a button held down so long it is taken as stuck."""
        app, tr = self.app, self.app.tr
        buttons = app.lobby.buttons
        if buttons is None or not buttons.available:
            item(tr("Hardware buttons"), tr("Not available. The table's own New deal and Undo "
                                            "work."), AMBER)
            if buttons is not None and buttons.reason is not None:
                col.add_widget(self.text(app.tr_reason(buttons.reason), u, size=15,
                                         color=AMBER))
            return
        item(tr("Hardware buttons"), tr("Connected."), GREEN_OK)
        pins = tr("New deal: GPIO {a}. Undo: GPIO {b}.", a=buttons.pins[NEW_DEAL],
                  b=buttons.pins[UNDO])
        chip = buttons.chip_label
        col.add_widget(self.text(f"{pins} ({chip})" if chip else pins, u, size=15,
                                 color=(1, 1, 1, 0.6)))
        for name in buttons.stuck():
            col.add_widget(self.text(tr("The {button} button is held down: stuck? It does "
                                        "nothing until it is released.",
                                        button=tr("New deal") if name == NEW_DEAL
                                        else tr("Undo")), u, color=AMBER))


PAGE = StatusPage
