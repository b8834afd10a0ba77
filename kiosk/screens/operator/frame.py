"""The operator menu's frame: the title with the kiosk's name, the Close button, one tab per
page and the panel the page shown is built into. The pages themselves (what they show and
do) are the modules named in :data:`PAGES`."""

from __future__ import annotations

import importlib
import logging
from typing import Any

from kivy.app import App
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from kiosk.screens.operator_scroll import TouchScroll
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, Felt, KButton, Panel, fit_font, lit_in_dark_ink

from .page import Page

log = logging.getLogger("kiosk.operator")

#: The menu's pages, in the order of their tabs: each the name of a module of this package
#: whose ``PAGE`` is its :class:`~.page.Page` class. A new page is a new module and its
#: name here.
PAGES = (
    "stats",
    "status",
    "export",
    "update",
    "games",
    "system",
)

#: Tabs side by side on a portrait screen stand in rows of this many, so each label keeps a
#: readable size (six in one row of a 720-pixel screen shrank to 11-14 pixels in English and
#: Russian, "Software update" and "Статистика" setting the size of all).
PORTRAIT_TAB_COLUMNS = 3


def page_class(name: str) -> type[Page]:
    return importlib.import_module(f"{__package__}.{name}").PAGE


class OperatorScreen(Screen):
    """The operator menu: one page at a time, picked from tabs."""

    PAGES = PAGES

    def __init__(self, **kw) -> None:
        super().__init__(name="operator", **kw)
        self.page = "stats"
        #: each page's object, which keeps its state and actions while the app runs
        self.pages: dict[str, Page] = {name: page_class(name)(self) for name in self.PAGES}
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.title = Label(bold=True, color=GOLD, halign="left", valign="middle",
                           size_hint=(None, None))
        #: the kiosk's name beside the title: the operator's own words, shortened if long
        self.kiosk_name = Label(color=(1, 1, 1, 0.7), halign="left", valign="middle",
                                size_hint=(None, None), shorten=True, shorten_from="right")
        self.close = KButton(color=(1, 1, 1, 1), size_hint=(None, None))
        self.close.bind(on_release=lambda *_: self.app.go_welcome())
        self.tabs = GridLayout(cols=1, size_hint=(None, None))
        self.tab_buttons: dict[str, KButton] = {}
        for page in self.PAGES:
            b = lit_in_dark_ink(KButton(color=(1, 1, 1, 1), bg=(1, 1, 1, 0.1)))
            b.bind(on_release=lambda _b, p=page: self.show(p))
            self.tab_buttons[page] = b
            self.tabs.add_widget(b)
        self.panel = Panel(orientation="vertical", size_hint=(None, None))
        for w in (self.title, self.kiosk_name, self.close, self.tabs, self.panel):
            root.add_widget(w)
        self.add_widget(root)
        #: the widgets of the page on screen that tests and pages look up by name
        self.widgets: dict[str, Any] = {}
        self._built_page = ""
        #: where the page's list was scrolled to, kept when the same page is rebuilt
        self.keep_offset: float | None = None
        self.bind(size=self._arrange)

    @property
    def app(self):
        return App.get_running_app()

    @property
    def u(self) -> float:
        return min(self.size) / 480 if min(self.size) > 0 else 1.0

    # ------------------------------------------------------------------ pages
    def open(self, page: str = "stats") -> None:
        for p in self.pages.values():
            p.reset()
        self.show(page)

    def show(self, page: str) -> None:
        if page not in self.PAGES:
            page = "stats"
        self.page = page
        self._built_page = ""  # a page opened from its tab starts at its top
        for p, b in self.tab_buttons.items():
            b.selected = p == page
        self.rebuild()

    def retranslate(self) -> None:
        tr = self.app.tr
        self._title()
        self.close.text = tr("Close")
        for p, b in self.tab_buttons.items():
            b.text = tr(self.pages[p].title)
        self._fit_tabs()
        if self.manager is not None and self.manager.current == self.name:
            self.rebuild()

    def _fit_tabs(self) -> None:
        u = self.u
        landscape = self.width >= self.height
        cols = self.tabs.cols      # as _arrange laid them out
        room = (self.tabs.width - self.tabs.spacing[0] * (cols - 1)) / cols - 16
        size = min(fit_font(b.text, (20 if landscape else 17) * u, room)
                   for b in self.tab_buttons.values())
        for b in self.tab_buttons.values():
            b.font_size = size

    def _title(self) -> None:
        """The title, at a size that fits half the header, and the kiosk's name after it."""
        w, h = self.size
        if w < 10:
            return
        u = self.u
        head = 62 * u
        room = w - self.close.width - 40 * u
        self.title.text = self.app.tr("Operator menu")
        self.title.font_size = fit_font(self.title.text, (26 if w >= h else 22) * u,
                                        room * 0.62, bold=True)
        self.title.text_size = (None, None)  # measured on one line, not in the last width
        self.title.texture_update()
        self.title.size = (min(self.title.texture_size[0] + 4, room * 0.62), head)
        self.title.text_size = self.title.size
        self.title.pos = (16 * u, h - head)
        self.kiosk_name.text = self.app.cfg.name
        self.kiosk_name.font_size = 18 * u
        self.kiosk_name.size = (max(1, room - self.title.width - 14 * u), head)
        self.kiosk_name.text_size = self.kiosk_name.size
        self.kiosk_name.pos = (self.title.right + 14 * u, h - head)

    def rebuild(self) -> None:
        body = self.panel
        scrolled = next((w for w in body.walk(restrict=True) if isinstance(w, TouchScroll)),
                        None)
        # the same page again (a saved change): its list stays where the operator was
        self.keep_offset = scrolled.offset if scrolled is not None and \
            self._built_page == self.page else None
        self._built_page = self.page
        body.clear_widgets()
        self.widgets = {}
        u = self.u
        body.padding = (16 * u, 12 * u)
        body.spacing = 10 * u
        try:
            self.pages[self.page].build(body, u)
        except Exception:  # noqa: BLE001 - a page bug must not end the menu
            log.exception("operator page %s failed", self.page)
            body.clear_widgets()
            body.add_widget(Page.text(self.app.tr("This page cannot be shown."), u))

    # ------------------------------------------------------------------ layout
    def _arrange(self, *_a) -> None:
        w, h = self.size
        if w < 10:
            return
        u = self.u
        landscape = w >= h
        head = 62 * u
        self.close.font_size = 20 * u
        self.close.size = (150 * u, 52 * u)
        self.close.pos = (w - self.close.width - 10 * u, h - head + (head - 52 * u) / 2)
        self._title()
        if landscape:
            tw = 160 * u
            self.tabs.cols = 1
            self.tabs.size = (tw, h - head - 10 * u)
            self.tabs.pos = (10 * u, 10 * u)
            self.tabs.spacing = 8 * u
            self.panel.size = (w - tw - 30 * u, h - head - 10 * u)
            self.panel.pos = (tw + 20 * u, 10 * u)
        else:
            cols = min(PORTRAIT_TAB_COLUMNS, len(self.tab_buttons))
            rows = -(-len(self.tab_buttons) // cols)
            th = rows * 60 * u + (rows - 1) * 6 * u
            self.tabs.cols = cols
            self.tabs.size = (w - 20 * u, th)
            self.tabs.pos = (10 * u, h - head - th - 4 * u)
            self.tabs.spacing = 6 * u
            self.panel.size = (w - 20 * u, h - head - th - 20 * u)
            self.panel.pos = (10 * u, 10 * u)
        self.panel.radius = 16 * u
        self._fit_tabs()
        if self.manager is not None and self.manager.current == self.name:
            self.rebuild()
