"""A screen manager that builds each screen the first time it is shown or asked for.

The kiosk has ten screens but a passer-by sees one: building the picker's 44 tiles, the
table, the hand table and the operator's pages before the welcome screen appears made a Pi's
start about twice as long as it had to be, and importing their modules pulled in every game.
:class:`OnDemandScreens` keeps a maker per screen name instead; ``sm.current = name`` (and
:meth:`get_screen`) builds the screen then, at the manager's size, so it is laid out once
and shows in the current language on its first frame.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from kivy.uix.screenmanager import Screen, ScreenManager

#: screen name -> "module:Class"; the module is imported when the screen is first built
SCREENS = {
    "welcome": "kiosk.screens.welcome:WelcomeScreen",
    "picker": "kiosk.screens.picker:PickerScreen",
    "table": "kiosk.screens.table:TableScreen",
    "attract": "kiosk.screens.attract:AttractScreen",
    "pin": "kiosk.screens.operator:PinScreen",
    "operator": "kiosk.screens.operator:OperatorScreen",
    "variants": "kiosk.screens.variant_sheet:VariantScreen",
    "gin": "kiosk.screens.gin_table:GinTableScreen",
    "poker": "kiosk.screens.poker_table:PokerTableScreen",
    "trick": "kiosk.screens.trick_table:TrickTableScreen",
}


def screen_class(name: str) -> type[Screen]:
    """The class of screen ``name`` (its module imported now)."""
    module, _, cls = SCREENS[name].partition(":")
    return getattr(importlib.import_module(module), cls)


class OnDemandScreens(ScreenManager):
    """A :class:`ScreenManager` whose screens in ``names`` are built on first use;
    ``on_built(screen)`` runs once each is added and sized (the app translates it there)."""

    def __init__(self, names: tuple[str, ...] = tuple(SCREENS),
                 on_built: Callable[[Screen], None] | None = None, **kw) -> None:
        self._buildable = set(names)
        self._on_built = on_built
        super().__init__(**kw)

    def built(self, name: str) -> Screen | None:
        """Screen ``name`` if it has been built, else None (nothing is built)."""
        return next((s for s in self.screens if s.name == name), None)

    def get_screen(self, name: str) -> Screen:
        screen = self.built(name)
        if screen is not None or name not in self._buildable:
            return screen if screen is not None else super().get_screen(name)
        screen = screen_class(name)()
        self.add_widget(screen)
        # the manager lays its screens out at the next frame; a screen asked for now (to be
        # shown or turned to a page) needs its size now
        screen.pos, screen.size = self.pos, self.size
        if self._on_built is not None:
            self._on_built(screen)
        return screen
