"""The two hardware buttons: New deal and Undo (gpiozero; no Kivy here).

* **New deal** (BCM 17): a press and release deals a new game. Holding it for
  ``new_deal_hold`` seconds (3 s) goes back to the game picker instead, and the release that
  follows does *not* deal. So the deal happens on release.
* **Undo** (BCM 27): a press undoes one move at once; holding it repeats the undo after
  ``undo_repeat_delay`` (0.8 s), then every ``undo_repeat_interval`` (0.4 s), at a steady pace
  (a late poll never fires a burst).
* A button held for :data:`STUCK_AFTER` (30 s) is taken as stuck (jammed, or leant on): it
  does nothing more until it is released (Undo's repeats stop, so the table can go idle and
  the kiosk back to its welcome screen), and the journal says so once.

The buttons are momentary switches between the pin and ground with the pin's pull-up on, so
a pressed button reads low (``[buttons] pull = "up"``, the default); ``pull = "down"`` is
for buttons wired to 3.3 V instead (pressed reads high).

The pins are lines of the GPIO chip ``[buttons] chip`` names by its label (``"auto"``: the
Pi's header chip, :mod:`kiosk.platform.gpiochip`), opened through lgpio, gpiozero's pin
factory for ``/dev/gpiochip*``; BCM numbers are that chip's line numbers. An explicit
``pin_factory`` (the tests' MockFactory) or gpiozero's own ``GPIOZERO_PIN_FACTORY`` takes
the place of that search.

Debounce is done here, with monotonic timestamps, not by gpiozero's ``bounce_time`` (whose
mock pins do not emulate it): an edge closer than ``debounce`` to the last accepted edge of
that button is bounce and ignored; the settled level is read back afterwards, so a tap
shorter than the debounce time still ends in the right state. The first edge is acted on at
once (no added latency). :class:`ButtonLogic` holds all of this as a pure state machine, fed
with edges and times, so it is tested without threads.

gpiozero calls back on its own thread (lgpio's, on a Pi). Events are handed to the
``dispatch`` callable the app gives; the app's function must bring them to the Kivy main
thread, e.g. ``lambda ev: Clock.schedule_once(lambda dt: table.on_button(ev))``. Events are
the strings :data:`NEW_DEAL`, :data:`UNDO` and :data:`PICKER`.

Where there is no GPIO (a laptop, CI, no header chip, a pin another driver holds),
:class:`Buttons` logs one warning naming the cause, keeps it in :attr:`Buttons.reason` for the
operator's Status page, sets :attr:`Buttons.available` False and does nothing more; the
screen's own New deal and Undo work as ever, and the keys N and U do the buttons' jobs.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.reason import Reason
from kiosk.platform.gpiochip import AUTO, ButtonsUnavailable, describe, open_factory

log = logging.getLogger("kiosk.buttons")

NEW_DEAL, UNDO, PICKER = "new_deal", "undo", "picker"
#: seconds a button may be held before it is taken as stuck
STUCK_AFTER = 30.0
_EPS = 1e-6  # float slack: 0.8 + 0.4 must be due at 1.2
BUTTONS = (NEW_DEAL, UNDO)


@dataclass
class _State:
    pressed: bool = False
    changed: float = float("-inf")   # time of the last accepted edge
    unsettled: bool = False          # an edge was ignored as bounce: read the level back
    held: bool = False               # New deal: the hold already went to the picker
    next_repeat: float = 0.0         # Undo: when the next repeat is due
    stuck: bool = False              # held for STUCK_AFTER: nothing more until released


class ButtonLogic:
    """Debounce, hold and repeat for the two buttons; pure (the caller passes the times).

    >>> b = ButtonLogic(debounce=0.05)
    >>> b.edge(UNDO, True, 10.0), b.edge(UNDO, False, 10.01), b.edge(UNDO, True, 10.02)
    (['undo'], [], [])
    >>> b.poll(10.85), b.poll(11.0), b.poll(11.25)
    (['undo'], [], ['undo'])
    """

    def __init__(self, debounce: float = 0.05, new_deal_hold: float = 3.0,
                 undo_repeat_delay: float = 0.8, undo_repeat_interval: float = 0.4,
                 stuck_after: float = STUCK_AFTER) -> None:
        self.debounce = debounce
        self.new_deal_hold = new_deal_hold
        self.undo_repeat_delay = undo_repeat_delay
        self.undo_repeat_interval = undo_repeat_interval
        self.stuck_after = max(stuck_after, new_deal_hold, undo_repeat_delay)
        self.state = {name: _State() for name in BUTTONS}
        #: accepted presses of either button so far (a hold is one press, however long)
        self.presses = 0
        #: buttons that became stuck since the caller last emptied this list
        self.newly_stuck: list[str] = []

    def edge(self, name: str, pressed: bool, t: float) -> list[str]:
        """A raw level change of button ``name`` at time ``t``; returns the events."""
        s = self.state[name]
        if pressed == s.pressed:
            s.unsettled = False
            return []
        if t - s.changed < self.debounce:
            s.unsettled = True
            return []
        return self._accept(name, pressed, t)

    def poll(self, t: float, levels: Mapping[str, bool] | None = None) -> list[str]:
        """Called often while :meth:`busy`: holds, repeats, and (with the current
        ``levels``) the settled state after bounce."""
        events: list[str] = []
        for name, s in self.state.items():
            if levels is not None and name in levels and levels[name] != s.pressed \
                    and t - s.changed >= self.debounce:
                events += self._accept(name, levels[name], t)
            elif levels is not None and name in levels and t - s.changed >= self.debounce:
                s.unsettled = False
            if not s.pressed or s.stuck:
                continue
            if t - s.changed >= self.stuck_after - _EPS:
                s.stuck = True
                self.newly_stuck.append(name)
                continue
            if name == NEW_DEAL and not s.held and t - s.changed >= self.new_deal_hold - _EPS:
                s.held = True
                events.append(PICKER)
            elif name == UNDO and t >= s.next_repeat - _EPS:
                events.append(UNDO)
                s.next_repeat += self.undo_repeat_interval
                if s.next_repeat <= t:  # a late poll: keep the pace, no burst
                    s.next_repeat = t + self.undo_repeat_interval
        return events

    def busy(self) -> bool:
        """True while some button is down (and not stuck) or its level has to be read back."""
        return any((s.pressed and not s.stuck) or s.unsettled for s in self.state.values())

    def stuck(self) -> list[str]:
        """The buttons held down for :attr:`stuck_after` and not released since."""
        return [name for name, s in self.state.items() if s.pressed and s.stuck]

    def _accept(self, name: str, pressed: bool, t: float) -> list[str]:
        s = self.state[name]
        s.pressed, s.changed, s.unsettled, s.stuck = pressed, t, False, False
        if pressed:
            self.presses += 1
        if name == UNDO:
            if pressed:
                s.next_repeat = t + self.undo_repeat_delay
                return [UNDO]
            return []
        if pressed:
            s.held = False
            return []
        return [] if s.held else [NEW_DEAL]


_warned = False
_NAMES = {NEW_DEAL: "New deal", UNDO: "Undo"}


class Buttons:
    """The buttons on their GPIO pins, feeding :class:`ButtonLogic`; events go to ``dispatch``.

    ``pin_factory``: None for lgpio on the chip labelled ``chip`` (or gpiozero's own choice
    when ``GPIOZERO_PIN_FACTORY`` or ``Device.pin_factory`` is set), or a factory (tests
    pass ``MockFactory()``).
    ``pull``: ``"up"`` (wired to ground, pressed reads low) or ``"down"`` (wired to 3.3 V).
    ``poll_thread=False`` leaves polling to the caller (:meth:`poll`), for tests.
    """

    def __init__(self, dispatch: Callable[[str], Any], *, new_deal_pin: int = 17,
                 undo_pin: int = 27, chip: str = AUTO, pull: str = "up", debounce_ms: int = 50,
                 new_deal_hold: float = 3.0, undo_repeat_delay: float = 0.8,
                 undo_repeat_interval: float = 0.4, stuck_after: float = STUCK_AFTER,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 tick: float = 0.02, poll_thread: bool = True) -> None:
        self.dispatch = dispatch
        self.clock = clock
        self.tick = tick
        self.logic = ButtonLogic(debounce_ms / 1000, new_deal_hold, undo_repeat_delay,
                                 undo_repeat_interval, stuck_after)
        self.pins = {NEW_DEAL: new_deal_pin, UNDO: undo_pin}
        self.chip = chip
        self.pull = pull
        self.devices: dict[str, Any] = {}
        self.available = False
        #: why the buttons do not work (None: they do), for the operator's Status page
        self.reason: Reason | None = None
        self.problem: str | None = None
        #: the factory this object opened (closed with it), or None
        self._factory: Any = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            self._open(pin_factory)
        except Exception as err:  # noqa: BLE001 - no GPIO must never stop the kiosk
            self._close_devices()
            self.reason = err.reason if isinstance(err, ButtonsUnavailable) else Reason(
                "The hardware buttons could not start: {error}.",
                error=describe(err))
            self.problem = f"hardware buttons not available: {self.reason}"
            global _warned
            if not _warned:
                log.warning("%s The screen's New deal and Undo (and the keys N and U) "
                            "still work.", self.problem)
                _warned = True
            else:
                log.info("%s", self.problem)
            return
        self.available = True
        if poll_thread:
            self._thread = threading.Thread(target=self._run, name="kiosk-buttons", daemon=True)
            self._thread.start()

    @property
    def chip_label(self) -> str | None:
        """The label of the GPIO chip the buttons are on (None: another pin factory)."""
        return getattr(self._factory, "chip_label", None)

    def stuck(self) -> list[str]:
        """The buttons held down so long that they are taken as stuck (see the module)."""
        with self._lock:
            return self.logic.stuck()

    @classmethod
    def from_config(cls, cfg: Any, dispatch: Callable[[str], Any], **kwargs: Any) -> Buttons:
        """From :class:`kiosk.settings.config.Buttons` (``cfg.buttons``)."""
        return cls(dispatch, new_deal_pin=cfg.new_deal_pin, undo_pin=cfg.undo_pin,
                   chip=cfg.chip, pull=cfg.pull, debounce_ms=cfg.debounce_ms,
                   new_deal_hold=cfg.new_deal_hold, undo_repeat_delay=cfg.undo_repeat_delay,
                   undo_repeat_interval=cfg.undo_repeat_interval, **kwargs)

    def _open(self, pin_factory: Any) -> None:
        from gpiozero import Button, Device
        from gpiozero.exc import PinFactoryFallback

        if pin_factory is None and Device.pin_factory is None \
                and not os.environ.get("GPIOZERO_PIN_FACTORY"):
            pin_factory = self._factory = open_factory(self.chip, self.pins)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)
            for name, pin in self.pins.items():
                # bounce_time=None: debounce is ours; hold is ours too (see ButtonLogic)
                dev = Button(pin, pull_up=self.pull == "up", bounce_time=None,
                             pin_factory=pin_factory)
                self.devices[name] = dev
                dev.when_pressed = lambda n=name: self._edge(n, True)
                dev.when_released = lambda n=name: self._edge(n, False)

    # ------------------------------------------------------------------ events
    def _edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            events = self.logic.edge(name, pressed, self.clock())
        self._send(events)
        self._wake.set()

    def poll(self) -> None:
        """Check holds, repeats and settled levels now (the thread does this every ``tick``)."""
        levels = {}
        for name, dev in self.devices.items():
            try:
                levels[name] = bool(dev.is_pressed)
            except Exception:  # noqa: BLE001 - a closed device
                pass
        with self._lock:
            events = self.logic.poll(self.clock(), levels)
            stuck, self.logic.newly_stuck = self.logic.newly_stuck, []
        for name in stuck:
            log.warning("the %s button has been held down for %.0f s: stuck? It does nothing "
                        "more until it is released", _NAMES[name], self.logic.stuck_after)
        self._send(events)

    def _send(self, events: list[str]) -> None:
        for ev in events:
            try:
                self.dispatch(ev)
            except Exception:  # noqa: BLE001 - a broken handler must not kill GPIO
                log.exception("button event %s: dispatch failed", ev)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            while not self._stop.is_set():
                self.poll()
                with self._lock:
                    busy = self.logic.busy()
                if not busy or self._stop.wait(self.tick):
                    break

    # ------------------------------------------------------------------ shutdown
    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._close_devices()
        self.available = False

    def _close_devices(self) -> None:
        for dev in self.devices.values():
            try:
                dev.close()
            except Exception:  # noqa: BLE001
                pass
        self.devices.clear()
        factory, self._factory = self._factory, None
        if factory is not None:
            try:
                factory.close()
            except Exception:  # noqa: BLE001
                pass
