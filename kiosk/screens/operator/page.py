"""What every page of the operator menu shares: its place in the menu, the colours of the
menu, and the helpers that give its texts, buttons and lists one look.

A page is a :class:`Page` subclass in a module of this package, named in
:data:`kiosk.screens.operator.frame.PAGES`; the frame builds it into its panel whenever it
is shown or its state changes (:meth:`OperatorScreen.rebuild`). The page keeps its own
state and actions; the frame only knows its name and title.
"""

from __future__ import annotations

from typing import Any, ClassVar

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.screens.operator_scroll import TouchScroll
from kiosk.screens.text_fit import FitLabel
from kiosk.screens.widgets import INK_DARK, KButton, Wrapped

from ...i18n import game_text

AMBER = (1.0, 0.78, 0.35, 1)
GREEN_OK = (0.55, 0.95, 0.6, 1)
KEY_BG = (1, 1, 1, 0.14)
KEY_DOWN = (1, 1, 1, 0.36)
ACTION_BG = (0.98, 0.76, 0.25, 0.92)
DANGER_BG = (0.85, 0.3, 0.25, 0.9)


class Page:
    """One page of the menu. ``name`` is its key (``app.show_operator(name)``), ``title``
    the English text of its tab (translated by the frame)."""

    name: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    @property
    def app(self) -> Any:
        return App.get_running_app()

    @property
    def widgets(self) -> dict[str, Any]:
        """The widgets of the page on screen that the tests and other pages look up."""
        return self.screen.widgets

    @property
    def showing(self) -> bool:
        """This page is the one the menu shows (a late answer redraws only its own page)."""
        return self.screen.page == self.name

    def reset(self) -> None:
        """The menu was opened: forget what only made sense while it was open."""

    def build(self, body: BoxLayout, u: float) -> None:
        """Fill ``body`` (the menu's panel) with the page; ``u`` is the screen's unit."""
        raise NotImplementedError

    def redraw(self) -> None:
        self.screen.rebuild()

    def game_name(self, game_id: str) -> str:
        return game_text(self.app.catalog_entry(game_id), "names", self.app.lang) or game_id

    # ------------------------------------------------------------------ the menu's look
    @staticmethod
    def text(text: str, u: float, *, size: float = 17, color=(1, 1, 1, 0.95),
             bold: bool = False) -> Wrapped:
        return Wrapped(text=text, font_size=size * u, color=color, bold=bold)

    @staticmethod
    def path_text(text: str, u: float, *, size: float = 17,
                  color=(1, 1, 1, 0.95)) -> FitLabel:
        """A line holding a file path: broken where Unicode allows (after a "/"), because
        Kivy's own wrapping breaks only at spaces and cut "config.toml" into "con / fig"
        when the path is longer than the portrait screen is wide."""
        return FitLabel(text=text, font_size=size * u, color=color, mode="grow",
                        size_hint_y=None)

    @staticmethod
    def button(text: str, u: float, action, *, bg=ACTION_BG, color=INK_DARK,
               height: float = 62, size: float = 20) -> KButton:
        b = KButton(text=text, color=color, bg=bg, bg_down=(1, 0.9, 0.5, 1), font_size=size * u,
                    size_hint_y=None, height=height * u)
        b.bind(on_release=lambda *_: action())
        return b

    def scroll(self, content: Widget, u: float) -> TouchScroll:
        """The page's list; rebuilt for a saved change, it stays where the operator was."""
        sv = TouchScroll(do_scroll_x=False, bar_width=8 * u, scroll_type=["bars", "content"],
                         effect_cls="ScrollEffect")
        sv.add_widget(content)
        if self.screen.keep_offset:
            sv.hold_offset(self.screen.keep_offset)
        return sv

    @staticmethod
    def column(u: float) -> BoxLayout:
        col = BoxLayout(orientation="vertical", size_hint_y=None, spacing=8 * u)
        col.bind(minimum_height=col.setter("height"))
        return col
