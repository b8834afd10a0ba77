"""The game picker: big tiles, one per game, in pages a finger swipes (or the arrows turn).

The games come in two groups, each on its own pages: the solitaires, then the hands played
against the computer. Mixed in the configuration's order, the three games against the
computer sat on pages 4 and 5 of 8 where nobody looking for one would find them; two tabs
under the pages name the groups, show which one is open and turn to its first page. A new
visitor starts on the first page (:meth:`PickerScreen.first_page`), not where the last one
left it."""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.carousel import Carousel
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from games import GameError
from games.engine.registry import listed
from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, INK_DARK, Felt, KButton, LanguageBar

from ..i18n import game_text


class GameTile(ButtonBehavior, BoxLayout):
    """A game's name, difficulty and one line of description, on a cream card."""

    def __init__(self, entry: dict, lang: str, u: float, **kw) -> None:
        super().__init__(orientation="vertical", padding=(12 * u, 8 * u), spacing=2 * u, **kw)
        self.game_id = entry["id"]
        with self.canvas.before:
            self._shade = Color(0, 0, 0, 0.25)
            self._shadow = RoundedRectangle(radius=[14 * u])
            self._fill = Color(0.99, 0.97, 0.9, 1)
            self._rect = RoundedRectangle(radius=[14 * u])
            Color(*GOLD)
            self._edge = Line(width=1.5)
        read = READ_PX * u
        # the name may take two lines, the description what is left; both shrink to the
        # floor a visitor reads, and only then end in "…"
        name = FitLabel(text=game_text(entry, "names", lang), color=INK_DARK, bold=True,
                        font_size=20 * u, valign="middle", size_hint_y=None,
                        mode="grow")
        stars = int(entry.get("difficulty") or 0)
        # dark amber: the lighter #cc800d read at 2.96:1 on the cream tile (text needs 4.5:1)
        diff = FitLabel(text="★" * stars + "☆" * max(0, 5 - stars), color=(0.55, 0.33, 0.0, 1),
                        font_size=read, valign="middle", size_hint_y=None, height=26 * u)
        desc = FitLabel(text=game_text(entry, "description", lang),
                        color=(0.25, 0.27, 0.25, 1), font_size=read, valign="top")
        for lab in (name, diff, desc):
            self.add_widget(lab)
        self.bind(pos=self._fit, size=self._fit, state=self._press)

    def _fit(self, *_a) -> None:
        x, y = self.pos
        w, h = self.size
        self._shadow.pos, self._shadow.size = (x + 3, y - 4), (w, h)
        self._rect.pos, self._rect.size = (x, y), (w, h)
        r = self._rect.radius[0][0] if self._rect.radius else 12
        self._edge.rounded_rectangle = (x + 1, y + 1, w - 2, h - 2, r)

    def _press(self, *_a) -> None:
        self._fill.rgba = (1, 0.9, 0.6, 1) if self.state == "down" else (0.99, 0.97, 0.9, 1)

    def on_release(self) -> None:
        App.get_running_app().choose_game(self.game_id)


class PickerScreen(Screen):
    """All registered games, paged; the page size follows the screen's shape."""

    def __init__(self, **kw) -> None:
        super().__init__(name="picker", **kw)
        root = FloatLayout()
        root.add_widget(Felt(size_hint=(1, 1), pos_hint={"x": 0, "y": 0}))
        self.title = FitLabel(bold=True, color=GOLD, halign="left", valign="middle",
                              size_hint=(None, None))
        self.langs = LanguageBar(size_hint=(None, None))
        self.carousel = Carousel(direction="right", loop=False, scroll_timeout=250,
                                 size_hint=(None, None))
        self.prev = KButton(text="‹", size_hint=(None, None), color=(1, 1, 1, 1))
        self.next = KButton(text="›", size_hint=(None, None), color=(1, 1, 1, 1))
        self.page = Label(color=(1, 1, 1, 0.85), size_hint=(None, None))
        self.prev.bind(on_release=lambda *_: self.carousel.load_previous())
        self.next.bind(on_release=lambda *_: self.carousel.load_next())
        self.carousel.bind(index=self._page_label)
        #: the groups' tabs: "solitaire" and "versus" (played against the computer)
        self.tabs = {group: KButton(size_hint=(None, None), color=(1, 1, 1, 1), bold=True)
                     for group in GROUPS}
        for group, tab in self.tabs.items():
            tab.bind(on_release=lambda _b, g=group: self.open_group(g))
        for w in (self.title, self.langs, self.carousel, self.prev, self.next, self.page,
                  *self.tabs.values()):
            root.add_widget(w)
        self.add_widget(root)
        #: the group of each page, and the page each game is on
        self.page_groups: list[str] = []
        self._page_of: dict[str, int] = {}
        self._built_for = None
        self.bind(size=self._arrange)

    def retranslate(self) -> None:
        app = App.get_running_app()
        self.title.text = app.tr("Choose a game")
        self.tabs["solitaire"].text = app.tr("Solitaire")
        self.tabs["versus"].text = app.tr("Play against the computer")
        self.langs.current = app.lang
        self._built_for = None
        self._arrange()

    def per_page(self) -> tuple[int, int]:
        w, h = self.size
        if w >= h:
            return (3, 2) if w < 1100 else (4, 2)
        return (1, 5)  # one wide tile a row: a narrow one holds a few words a line

    def _arrange(self, *_a) -> None:
        app = App.get_running_app()
        w, h = self.size
        if w < 10 or app is None:
            return
        u = min(w, h) / 480
        top = 68 * u
        # a 48 px face in each button's box (a KButton paints 2 px inside it)
        # wide enough for "Русский" at the floor in portrait (it was drawn at 22 of 27 px)
        self.langs.size = (min(w * (0.46 if w >= h else 0.6), 380 * u), 52 * u)
        self.langs.pos = (w - self.langs.width - 10 * u, h - top + (top - 52 * u) / 2)
        self.title.font_size = 30 * u
        self.title.min_font = READ_PX * u
        self.title.size = (self.langs.x - 32 * u, top)  # never under the language buttons
        self.title.pos = (16 * u, h - top)
        arrow = 54 * u
        # the tabs' bar: taller on a narrow screen, where a group's name takes two lines
        bottom = (58 if w >= h else 84) * u
        self.carousel.pos = (arrow + 8 * u, bottom)
        self.carousel.size = (w - 2 * (arrow + 8 * u), h - top - bottom)
        for b, x in ((self.prev, 4 * u), (self.next, w - arrow - 4 * u)):
            b.size = (arrow, min(180 * u, self.carousel.height))
            b.pos = (x, bottom + (self.carousel.height - b.height) / 2)
            b.font_size = 44 * u
        counter = 110 * u
        self.page.size = (counter, bottom)
        self.page.pos = ((w - counter) / 2, 0)
        self.page.font_size = 18 * u
        tab_w = (w - counter) / 2 - 12 * u
        for tab, x in ((self.tabs["solitaire"], 8 * u), (self.tabs["versus"], w - 8 * u - tab_w)):
            tab.size = (tab_w, bottom - 6 * u)  # a 48 px face (it was 44) in a 52 px box
            tab.pos = (x, 3 * u)
            tab.font_size = 20 * u
            tab.min_font = READ_PX * u
        key = (app.lang, self.per_page(), round(u, 3), tuple(app.game_ids()))
        if key != self._built_for:
            self._build_pages(u)
            self._built_for = key
        self._page_label()

    def _build_pages(self, u: float) -> None:
        app = App.get_running_app()
        cols, rows = self.per_page()
        keep = self.carousel.index or 0
        self.carousel.clear_widgets()
        self.page_groups, self._page_of = [], {}
        per = cols * rows
        for group, entries in grouped(app.catalog()):
            for start in range(0, len(entries), per):
                grid = GridLayout(cols=cols, rows=rows, spacing=14 * u, padding=6 * u)
                chunk = entries[start:start + per]
                for entry in chunk:
                    grid.add_widget(GameTile(entry, app.lang, u))
                    self._page_of[entry["id"]] = len(self.page_groups)
                for _ in range(per - len(chunk)):
                    grid.add_widget(Widget())
                self.carousel.add_widget(grid)
                self.page_groups.append(group)
        if not self.carousel.slides:  # no game enabled: one empty page
            self.carousel.add_widget(GridLayout(cols=cols, rows=rows))
            self.page_groups.append(GROUPS[0])
        pages = len(self.carousel.slides)
        if pages:
            self.carousel.index = min(keep, pages - 1)

    def _page_label(self, *_a) -> None:
        pages = max(1, len(self.carousel.slides))
        index = (self.carousel.index or 0) + 1
        self.page.text = f"{index} / {pages}" if pages > 1 else ""
        self.prev.opacity = 1 if index > 1 else 0.25
        self.next.opacity = 1 if index < pages else 0.25
        self.prev.disabled = index <= 1
        self.next.disabled = index >= pages
        # the tabs only when both groups have games; the open page's group is lit
        both = all(g in self.page_groups for g in GROUPS)
        current = self.page_groups[index - 1] if index - 1 < len(self.page_groups) else None
        for group, tab in self.tabs.items():
            tab.opacity = 1 if both else 0
            tab.disabled = not both
            tab.selected = both and group == current
            tab.bg = (1, 1, 1, 0.12)
            tab.bg_down = (0.98, 0.76, 0.25, 0.55)

    def open_group(self, group: str) -> None:
        """Turn to the first page of ``group`` (its tab was tapped)."""
        if group in self.page_groups:
            self.carousel.index = self.page_groups.index(group)

    def first_page(self) -> None:
        """The next visitor starts at the beginning."""
        if self.carousel.slides:
            self.carousel.index = 0

    def show_game(self, game_id: str) -> None:
        """Turn to the page holding ``game_id`` (used when coming back from a table)."""
        page = self._page_of.get(game_id)
        if page is not None and page < len(self.carousel.slides):
            self.carousel.index = page


#: the picker's groups, in their order: solitaires, then games against the computer
GROUPS = ("solitaire", "versus")


def grouped(entries: list[dict]) -> list[tuple[str, list[dict]]]:
    """The catalog's entries in the picker's groups (each in the configuration's order);
    an empty group is left out."""
    versus = [e for e in entries if _seated(e["id"])]
    solitaire = [e for e in entries if not _seated(e["id"])]
    return [(g, es) for g, es in zip(GROUPS, (solitaire, versus), strict=True) if es]


def _seated(game_id: str) -> bool:
    try:
        return listed(game_id).seated
    except GameError:  # an unknown game is listed with the solitaires
        return False
