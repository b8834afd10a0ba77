"""The operator's PIN keypad, in front of the menu and of the maintenance console.

A wrong PIN shakes the dots and clears them, with no hint; after five wrong tries the keypad
locks, for a minute the first time and twice as long each time after that, across restarts
(:class:`kiosk.settings.operator.PinGuard`); the message counts the seconds down.
"""

from __future__ import annotations

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, INK_DARK, Felt, KButton, Panel, fit_font

from .page import ACTION_BG, AMBER, KEY_BG, KEY_DOWN


class PinScreen(Screen):
    """A big keypad. ``purpose``: ``"menu"`` opens the operator menu, ``"maintenance"``
    leaves the app for the maintenance console."""

    MAX_DIGITS = 8

    def __init__(self, **kw) -> None:
        super().__init__(name="pin", **kw)
        self.purpose = "menu"
        self.entered = ""
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        fixed = {"size_hint": (None, None), "halign": "center", "valign": "middle"}
        self.title = Label(bold=True, color=GOLD, **fixed)
        self.prompt = Label(color=(1, 1, 1, 0.95), **fixed)
        self.field = Panel(size_hint=(None, None), fill=(0, 0, 0, 0.35))
        self.dots = Label(color=(1, 1, 1, 1), halign="center", valign="middle")
        self.field.add_widget(self.dots)
        self.message = Label(color=AMBER, **fixed)
        self.keypad = GridLayout(cols=3, size_hint=(None, None))
        self.keys: dict[str, KButton] = {}
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok"):
            b = KButton(color=(1, 1, 1, 1), bg=KEY_BG, bg_down=KEY_DOWN)
            if key == "ok":
                b.bg, b.bg_down, b.color = ACTION_BG, (1, 0.9, 0.5, 1), INK_DARK
            b.bind(on_release=lambda _b, k=key: self.press(k))
            self.keys[key] = b
            self.keypad.add_widget(b)
        self.cancel = KButton(color=(1, 1, 1, 1), size_hint=(None, None))
        self.cancel.bind(on_release=lambda *_: self.leave())
        for w in (self.title, self.prompt, self.field, self.message, self.keypad, self.cancel):
            root.add_widget(w)
        self.add_widget(root)
        self._tick = None
        self.bind(size=self._arrange)

    @property
    def app(self):
        return App.get_running_app()

    # ------------------------------------------------------------------ flow
    def open(self, purpose: str = "menu") -> None:
        self.purpose = purpose
        self.entered = ""
        self.message.text = ""
        self.retranslate()
        self._show()
        self._check_lock()

    def leave(self) -> None:
        self.entered = ""
        self._stop_tick()
        if self.purpose == "maintenance":
            self.app.show_operator("system")
        else:
            self.app.go_welcome()

    def press(self, key: str) -> None:
        guard = self.app.pin_guard
        if guard.locked():
            self._check_lock()
            return
        if key == "back":
            self.entered = self.entered[:-1]
        elif key == "ok":
            self.submit()
            return
        elif len(self.entered) < self.MAX_DIGITS:
            self.entered += key
        self._show()

    def submit(self) -> None:
        entered, self.entered = self.entered, ""
        outcome = self.app.pin_guard.check(entered)
        self._show()
        if outcome == "ok":
            self.message.text = ""
            if self.purpose == "maintenance":
                self.app.system.maintenance()
            else:
                self.app.show_operator()
        elif outcome == "locked":
            self._check_lock()
        else:
            self.shake()

    def shake(self) -> None:
        """No hint about the PIN: the dots wobble and clear."""
        if not self.app.animate:
            return
        f = self.field
        x = f.x
        amp = max(8.0, f.width * 0.04)
        Animation.cancel_all(f, "x")
        (Animation(x=x - amp, d=0.05) + Animation(x=x + amp, d=0.08)
         + Animation(x=x - amp / 2, d=0.07) + Animation(x=x, d=0.05)).start(f)

    def _check_lock(self, *_a) -> None:
        guard = self.app.pin_guard
        locked = guard.locked()
        for b in self.keys.values():
            b.disabled = locked
            b.opacity = 0.35 if locked else 1
        if locked:
            self.message.text = self.app.tr("Too many wrong tries. Try again in {seconds} s.",
                                            seconds=guard.seconds_left())
            if self._tick is None:
                self._tick = Clock.schedule_interval(self._check_lock, 1.0)
        else:
            if self._tick is not None:
                self.message.text = ""
            self._stop_tick()

    def _stop_tick(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def on_leave(self, *_a) -> None:
        self._stop_tick()
        self.entered = ""

    # ------------------------------------------------------------------ drawing
    def _show(self) -> None:
        self.dots.text = " ".join("•" * len(self.entered)) if self.entered else ""

    def retranslate(self) -> None:
        tr = self.app.tr
        self.title.text = tr("Operator") if self.purpose == "menu" else tr("Maintenance console")
        self._arrange()  # the title's size follows its words
        self.prompt.text = tr("Enter the PIN")
        self.cancel.text = tr("Cancel")
        self.keys["ok"].text = tr("OK")
        self.keys["back"].text = "←"
        for k, b in self.keys.items():
            if k.isdigit():
                b.text = k
        if self.app.pin_guard.locked():
            self._check_lock()

    def _arrange(self, *_a) -> None:
        w, h = self.size
        if w < 10:
            return
        u = min(w, h) / 480
        landscape = w >= h
        if landscape:
            left_w = w * 0.44
            pad_w = min(w - left_w - 30 * u, 380 * u)
            pad_h = h - 40 * u
            self.keypad.size = (pad_w, pad_h)
            self.keypad.pos = (w - pad_w - 20 * u, 20 * u)
            cx, top = left_w / 2 + 10 * u, h - 40 * u
            col_w = left_w - 20 * u
        else:
            pad_w = w - 60 * u
            pad_h = min(h * 0.5, 4 * 120 * u)
            self.keypad.size = (pad_w, pad_h)
            self.keypad.pos = ((w - pad_w) / 2, 40 * u)
            cx, top = w / 2, h - 60 * u
            col_w = w - 40 * u
        self.keypad.spacing = 10 * u
        for k, b in self.keys.items():
            b.font_size = (30 if k.isdigit() or k == "back" else 24) * u * (1 if landscape
                                                                              else 1.05)
        self.title.font_size = fit_font(self.title.text, 34 * u, col_w - 4, bold=True)
        self.title.size = (col_w, 56 * u)
        self.title.text_size = (col_w, None)
        self.title.center_x, self.title.top = cx, top
        self.prompt.font_size = 20 * u
        self.prompt.size = (col_w, 36 * u)
        self.prompt.text_size = (col_w, None)
        self.prompt.center_x, self.prompt.top = cx, self.title.y - 6 * u
        self.field.size = (min(col_w, 300 * u), 70 * u)
        self.field.radius = 14 * u
        self.field.center_x, self.field.top = cx, self.prompt.y - 14 * u
        self.dots.font_size = 40 * u
        self.message.font_size = 17 * u
        self.message.size = (col_w, 60 * u)
        self.message.text_size = (col_w, None)
        self.message.center_x, self.message.top = cx, self.field.y - 8 * u
        self.cancel.font_size = 20 * u
        self.cancel.size = (min(col_w, 220 * u), 60 * u)
        if landscape:
            self.cancel.center_x, self.cancel.y = cx, 20 * u
        else:
            self.cancel.center_x, self.cancel.top = cx, self.message.y - 10 * u
