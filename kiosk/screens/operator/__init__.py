"""The operator's screens: the PIN keypad and the menu behind it.

Visitors never see a way in: the keypad opens only after a finger rests for 5 s in the top
left corner of the welcome screen or the picker (:mod:`kiosk.lobby`). A wrong PIN shakes the
dots and clears them, with no hint; after five wrong tries the keypad locks, for a minute the
first time and twice as long each time after that, across restarts
(:class:`kiosk.settings.operator.PinGuard`); the message counts the seconds down. The menu's
pages: statistics, status (play log, buttons, configuration problems), export to a USB
stick, games and language, system (restart, reboot, shut down, maintenance console). Like
every screen, the menu returns to the welcome screen after the idle timeout.

The keypad is :mod:`.pin`; the menu's frame (title, tabs, panel) is :mod:`.frame`; each page
is a module of its own (:mod:`.stats`, :mod:`.status`, :mod:`.export`, :mod:`.games`,
:mod:`.system`) built on :class:`.page.Page`, listed in :data:`.frame.PAGES`.
"""

from .frame import PAGES, OperatorScreen
from .pin import PinScreen

__all__ = ["PAGES", "OperatorScreen", "PinScreen"]
