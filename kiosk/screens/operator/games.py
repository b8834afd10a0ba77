"""The Games page: the language at start, which games the picker offers and in what order,
and per game whether it deals only winnable deals, which variants its sheet offers (and
which is the default) and the computer's level it starts on. Every change is saved in the
configuration file at once."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk.screens.text_fit import TOUCH_GAP
from kiosk.screens.widgets import INK_DARK, ButtonGrid, KButton, lit_in_dark_ink
from kiosk.settings import overrides, variants
from kiosk.solving import deals

from ...i18n import LANGUAGE_NAMES, LANGUAGES, game_text
from .page import Page


class GamesPage(Page):
    name = "games"
    title = "Games"

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        #: what the last change did (saved where, or why not)
        self.note = ""
        #: every game in the order the page lists them, fixed while the menu is open
        self._full_order: list[str] = []

    def reset(self) -> None:
        self.note = ""
        self._full_order = []

    def build(self, body: BoxLayout, u: float) -> None:
        app, tr = self.app, self.app.tr
        body.add_widget(self.text(tr("Language at start and on the welcome screen"), u,
                                  size=15, color=(1, 1, 1, 0.6), bold=True))
        row = BoxLayout(size_hint_y=None, height=54 * u, spacing=8 * u)
        for lang in LANGUAGES:
            b = lit_in_dark_ink(KButton(text=LANGUAGE_NAMES[lang], color=(1, 1, 1, 1),
                                        bg=(1, 1, 1, 0.1), font_size=19 * u))
            b.selected = lang == app.cfg.language
            b.bind(on_release=lambda _b, code=lang: self.set_language(code))
            row.add_widget(b)
        body.add_widget(row)
        enabled = app.game_ids()
        body.add_widget(self.text(tr("Games in the picker ({on} of {all})", on=len(enabled),
                                     all=len(app.all_game_ids())), u, size=15,
                                  color=(1, 1, 1, 0.6), bold=True))
        if not self._full_order:
            self._full_order = self.full_order(enabled, app.all_game_ids())
        # one column of wide rows: every name whole on one line, in every language (two
        # columns cut "Канфилд (Дем…" at 800x480); a name that still needs two lines wraps
        grid = GridLayout(cols=1, size_hint_y=None, spacing=(10 * u, 8 * u),
                          row_default_height=56 * u, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        toggles, winnable = {}, {}
        for game_id in self._full_order:
            on = game_id in enabled
            # the mark is glued to the name by a no-break space: it never stands alone
            b = KButton(text=("✓\u00a0" if on else "") + self.game_name(game_id),
                        halign="left", color=INK_DARK if on else (1, 1, 1, 0.75),
                        bg=(0.98, 0.76, 0.25, 0.88) if on else (1, 1, 1, 0.08),
                        bg_down=(1, 0.9, 0.5, 1), font_size=17 * u, min_font=14 * u,
                        words_only=False, inset=10 * u)
            b.bind(on_release=lambda _b, g=game_id: self.toggle_game(g))
            toggles[game_id] = b
            cell = BoxLayout(spacing=TOUCH_GAP * u)
            cell.add_widget(b)
            w = self._winnable_button(game_id, u)
            if w is not None:
                cell.add_widget(w)
                winnable[game_id] = w
            grid.add_widget(cell)
        content = self.column(u)
        if winnable:  # in the list, which keeps the page's room for the games at 800x480
            content.add_widget(self.text(tr("Winnable: only deals the solver has won. Any "
                                            "deal: every deal, some cannot be won."), u,
                                         size=14, color=(1, 1, 1, 0.6)))
        content.add_widget(grid)
        self._variant_rows(content, u)
        body.add_widget(self.scroll(content, u))
        self.widgets["toggles"] = toggles
        self.widgets["winnable"] = winnable
        if self.note:
            body.add_widget(self.text(self.note, u, size=15, color=(1, 1, 1, 0.7)))

    @staticmethod
    def full_order(enabled: list[str], every: list[str]) -> list[str]:
        """Every game, the enabled ones in the picker's order, each disabled one right after
        the game it follows in the default order (so switching it on puts it back there)."""
        full = list(enabled)
        for k, game_id in enumerate(every):
            if game_id in full:
                continue
            before = next((g for g in reversed(every[:k]) if g in full), None)
            full.insert(full.index(before) + 1 if before is not None else 0, game_id)
        return full

    def toggle_game(self, game_id: str) -> None:
        app, tr = self.app, self.app.tr
        enabled = set(app.game_ids())
        if game_id in enabled:
            if len(enabled) == 1:
                self.note = tr("At least one game must stay in the picker.")
                self.redraw()
                return
            enabled.discard(game_id)
        else:
            enabled.add(game_id)
        order = [g for g in self._full_order if g in enabled]
        self.note = self._saved(app.set_enabled_games(order))
        self.redraw()

    def _variant_rows(self, column: BoxLayout, u: float) -> None:
        """The named variants the visitors' variant sheet offers, per game: a tap on a
        variant goes off -> offered -> default -> off (one stays offered; the default is
        offered). A game offering one variant deals it without the sheet."""
        app, tr = self.app, self.app.tr
        column.add_widget(self.text(tr("Variants before the deal (★ the default)"), u,
                                    size=15, color=(1, 1, 1, 0.6), bold=True))
        buttons: dict[tuple[str, str], KButton] = {}
        for game_id in variants.with_variants():
            offer = {v.key for v in variants.offered(app.cfg, game_id)}
            chosen = variants.default(app.cfg, game_id)
            name = game_text(app.catalog_entry(game_id), "names", app.lang) or game_id
            column.add_widget(self.text(name, u, size=15, color=(1, 1, 1, 0.9)))
            grid = self._choice_grid(u)
            for v in variants.variants_of(game_id):
                star = chosen is not None and v.key == chosen.key
                b = self._choice(tr(v.name), star, v.key in offer, u)
                b.bind(on_release=lambda _b, g=game_id, k=v.key: self.cycle_variant(g, k))
                buttons[(game_id, v.key)] = b
                grid.add_widget(b)
            column.add_widget(grid)
            if variants.levels_beside(game_id):
                self._level_row(column, game_id, u)
        self.widgets["variants"] = buttons

    def _level_row(self, column: BoxLayout, game_id: str, u: float) -> None:
        """A game whose sheet asks another question first (Draw Poker: how many opponents)
        shows the computer's levels as a row of their own; here the operator picks the
        level that row starts on (★), like the other games' default level."""
        tr = self.app.tr
        chosen = variants.default_level(self.app.cfg, game_id)
        column.add_widget(self.text(tr("How well the computer plays (★ at the start)"), u,
                                    size=14, color=(1, 1, 1, 0.7)))
        grid = self._choice_grid(u)
        buttons = self.widgets.setdefault("levels", {})
        for v in variants.levels_beside(game_id):
            on = v.key == chosen
            b = self._choice(tr(v.name), on, on, u)
            b.bind(on_release=lambda _b, g=game_id, k=v.key: self.set_level(g, k))
            buttons[(game_id, v.key)] = b
            grid.add_widget(b)
        column.add_widget(grid)

    @staticmethod
    def _choice_grid(u: float) -> ButtonGrid:
        """Rows of a game's choices (variants, levels): as many a row as fit a finger."""
        return ButtonGrid(spacing=TOUCH_GAP * u, min_cell=120 * u, row_default_height=52 * u,
                          row_force_default=True)

    @staticmethod
    def _choice(text: str, star: bool, on: bool, u: float) -> KButton:
        """One choice: gold with dark ink when offered (on), ★ before the one chosen first."""
        return KButton(text=("★ " if star else "") + text,
                       color=INK_DARK if on else (1, 1, 1, 0.75),
                       bg=(0.98, 0.76, 0.25, 0.88) if on else (1, 1, 1, 0.08),
                       bg_down=(1, 0.9, 0.5, 1), font_size=14 * u, min_font=11 * u)

    def set_level(self, game_id: str, level: str) -> None:
        """The level the visitors' level row starts on for ``game_id``; saved like every
        other change of the menu, used from the next time a visitor picks the game."""
        app = self.app
        app.cfg.game_options.setdefault(game_id, {})[overrides.LEVEL_KEY] = level
        self.note = self._saved(overrides.save(app.cfg, app.lobby_data_dir(),
                                               levels={game_id: level}))
        self.redraw()

    def cycle_variant(self, game_id: str, key: str) -> None:
        """off -> offered -> default -> off, for one variant of ``game_id``."""
        app = self.app
        keys = [v.key for v in variants.variants_of(game_id)]
        offer = [v.key for v in variants.offered(app.cfg, game_id)]
        chosen = variants.default(app.cfg, game_id)
        default = chosen.key if chosen else keys[0]
        if key not in offer:
            offer.append(key)
        elif key != default:
            default = key
        elif len(offer) > 1:
            offer.remove(key)
            default = next(k for k in keys if k in offer)
        offer = [k for k in keys if k in offer]
        self.note = self._saved(app.set_variants(game_id, offer, default))
        self.redraw()

    def _winnable_button(self, game_id: str, u: float) -> KButton | None:
        """The "winnable deals only" switch of one game; None for a game without a deal
        list (it can only deal any deal)."""
        app = self.app
        if not deals.list_path(game_id, app.cfg.options_for(game_id)).is_file():
            return None
        on, _why = app.cfg.winnable(game_id)
        b = KButton(text=app.tr("Winnable") if on else app.tr("Any deal"),
                    color=INK_DARK if on else (1, 1, 1, 0.75),
                    bg=(0.55, 0.85, 0.6, 0.9) if on else (1, 1, 1, 0.08),
                    bg_down=(1, 0.9, 0.5, 1), font_size=15 * u, min_font=13 * u,
                    size_hint_x=None, width=104 * u)
        b.bind(on_release=lambda _b, g=game_id: self.toggle_winnable(g))
        return b

    def toggle_winnable(self, game_id: str) -> None:
        on, _why = self.app.cfg.winnable(game_id)
        self.note = self._saved(self.app.set_winnable_only(game_id, not on))
        self.redraw()

    def set_language(self, lang: str) -> None:
        self.note = self._saved(self.app.set_default_language(lang))
        self.redraw()

    def _saved(self, saved: Any) -> str:
        tr = self.app.tr
        if saved is None:
            return ""
        if saved.ok:
            return tr("Saved in {path}.", path=saved.path) if saved.path else ""
        return tr("Not saved ({reason}); the change lasts until the app restarts.",
                  reason=saved.message)


PAGE = GamesPage
