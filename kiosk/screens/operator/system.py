"""The System page: restart the app, reboot, shut down, leave for the maintenance console.
Each button asks for a second tap within a few seconds before it acts."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import INK_DARK, KButton
from kiosk.settings.operator import CommandResult

from .page import ACTION_BG, AMBER, DANGER_BG, Page

CONFIRM_SECONDS = 4.0


class SystemPage(Page):
    name = "system"
    title = "System"

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.note = ""
        #: the armed action -> the clock event that disarms it
        self._confirm: dict[str, Any] = {}

    def reset(self) -> None:
        self.note = ""
        self._confirm.clear()

    def build(self, body: BoxLayout, u: float) -> None:
        tr = self.app.tr
        actions = (
            ("restart", tr("Restart the app"), tr("The kiosk starts again in a few seconds.")),
            ("reboot", tr("Reboot"), tr("The Pi starts again; about a minute.")),
            ("poweroff", tr("Shut down"),
             tr("Wait until the screen goes dark before you pull the plug.")),
            ("maintenance", tr("Maintenance console"),
             tr("Leaves the kiosk for a login prompt; asks for the PIN again.")),
        )
        grid = GridLayout(cols=2 if self.screen.width >= self.screen.height else 1,
                          spacing=10 * u, size_hint_y=None, row_default_height=118 * u,
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        buttons = {}
        for key, title, hint in actions:
            box = BoxLayout(orientation="vertical", spacing=2 * u)
            confirming = key in self._confirm
            b = KButton(text=tr("Tap again to confirm") if confirming else title,
                        color=(1, 1, 1, 1) if confirming else INK_DARK,
                        bg=DANGER_BG if confirming else ACTION_BG, bg_down=(1, 0.9, 0.5, 1),
                        font_size=20 * u, size_hint_y=None, height=62 * u)
            b.bind(on_release=lambda _b, k=key: self.system_action(k))
            box.add_widget(b)
            lab = Label(text=hint, font_size=14 * u, color=(1, 1, 1, 0.65), size_hint_y=None,
                        height=48 * u, halign="center", valign="top")
            lab.bind(size=lambda lab_, sz: setattr(lab_, "text_size", sz))
            box.add_widget(lab)
            buttons[key] = b
            grid.add_widget(box)
        body.add_widget(self.scroll(grid, u))
        self.widgets["system"] = buttons
        note = self.text(self.note, u, size=18, color=AMBER, bold=True)
        body.add_widget(note)
        self.widgets["system_note"] = note

    def system_action(self, key: str) -> None:
        """First tap arms the button ("tap again to confirm"), the second does it."""
        if key not in self._confirm:
            for ev in self._confirm.values():
                ev.cancel()
            self._confirm.clear()
            self._confirm[key] = Clock.schedule_once(lambda _dt: self._disarm(key),
                                                     CONFIRM_SECONDS)
            self.redraw()
            return
        self._confirm.pop(key).cancel()
        app, tr = self.app, self.app.tr
        system = app.system
        if key == "restart":
            self.note = tr("Restarting…")
            self.redraw()
            system.restart_app()
        elif key == "maintenance":
            app.show_pin("maintenance")
        elif key in ("reboot", "poweroff"):
            self.note = tr("Rebooting…") if key == "reboot" else tr("Shutting down…")
            self.redraw()
            run = system.reboot if key == "reboot" else system.poweroff
            run(lambda result: Clock.schedule_once(
                lambda _dt: self._done(key, result), 0))

    def _done(self, key: str, result: CommandResult) -> None:
        if result.ok:
            return  # systemd stops the kiosk in a moment
        tr = self.app.tr
        what = tr("Could not reboot") if key == "reboot" else tr("Could not shut down")
        self.note = f"{what}: {result.message}"
        if self.showing:
            self.redraw()

    def _disarm(self, key: str) -> None:
        if self._confirm.pop(key, None) is not None and self.showing:
            self.redraw()


PAGE = SystemPage
