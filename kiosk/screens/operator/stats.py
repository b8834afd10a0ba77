"""The Statistics page: the solitaires' plays and win rates (today or all time), then what
counts at the tables against the computer."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.records import stats as stats_mod
from kiosk.screens.text_fit import FitLabel
from kiosk.screens.widgets import GOLD, KButton, lit_in_dark_ink
from kiosk.settings import variants

from .page import Page


def minutes(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.0f}%"


class StatsPage(Page):
    name = "stats"
    title = "Statistics"
    WIDTHS = (0.40, 0.12, 0.12, 0.15, 0.21)

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        #: "today" or "all"; kept while the app runs
        self.scope = "today"

    def build(self, body: BoxLayout, u: float) -> None:
        """The solitaires' plays and win rates, then what counts at the tables against the
        computer: matches, hands won, lost and tied, and Draw Poker's chips, by level."""
        tr = self.app.tr
        row = BoxLayout(size_hint_y=None, height=52 * u, spacing=10 * u)
        for scope, text in (("today", tr("Today")), ("all", tr("All time"))):
            b = lit_in_dark_ink(KButton(text=text, color=(1, 1, 1, 1), bg=(1, 1, 1, 0.1),
                                        font_size=19 * u))
            b.selected = scope == self.scope
            b.bind(on_release=lambda _b, s=scope: self.set_scope(s))
            row.add_widget(b)
        body.add_widget(row)
        data = self.app.statistics()
        if data is None:
            body.add_widget(self.text(tr("The play log is not available."), u))
            body.add_widget(Widget())
            return
        scope = self.scope
        games = [(g, s[scope]) for g, s in data["games"].items()
                 if s[scope]["plays"] and not stats_mod.against_the_computer(g)]
        seated = [e for e in (data.get("against_computer_today" if scope == "today" else
                                       "against_computer") or {}).values()
                  if e.get("hands") or e.get("matches")]
        table = self.column(u)
        table.spacing = 2 * u
        if not games and not seated:
            table.add_widget(self.text(tr("No games played yet.") if scope == "all"
                                       else tr("No games played today."), u))
        if games:
            self._solitaire_rows(table, data.get("solitaires", data["total"])[scope], games, u)
        if seated:
            self._seated_rows(table, seated, u)
        body.add_widget(self.scroll(table, u))
        self.widgets["stats_rows"] = len(games)
        self.widgets["seated_rows"] = len(seated)
        note = tr("Demo games are not counted.")
        if not data.get("clock_synced", True):
            note += " " + tr("The clock is not synchronised: today counts this start only.")
        body.add_widget(self.text(note, u, size=14, color=(1, 1, 1, 0.6)))

    def set_scope(self, scope: str) -> None:
        self.scope = scope
        self.redraw()

    def _solitaire_rows(self, table: BoxLayout, total: dict[str, Any],
                        games: list[tuple[str, dict[str, Any]]], u: float) -> None:
        tr, widths = self.app.tr, self.WIDTHS
        heads = (tr("Game"), tr("Plays"), tr("Wins"), tr("Win rate"), tr("Median time"))
        table.add_widget(self._row(heads, widths, u, head=True))
        table.add_widget(self._row(
            (tr("All games"), str(total["plays"]), str(total["wins"]),
             percent(total["win_rate"]), minutes(total["median_time"])), widths, u, gold=True))
        order = {g: k for k, g in enumerate(self.app.all_game_ids())}
        games.sort(key=lambda gs: (-gs[1]["plays"], order.get(gs[0], 999)))
        for game_id, s in games:
            table.add_widget(self._row(
                (self.game_name(game_id), str(s["plays"]), str(s["wins"]),
                 percent(s["win_rate"]), minutes(s["median_time"])), widths, u))

    def _seated_rows(self, table: BoxLayout, entries: list[dict[str, Any]], u: float) -> None:
        """One block per game and computer level, in sentences that wrap (a table of eight
        narrow columns cannot be read in Russian at 800x480)."""
        tr = self.app.tr
        table.add_widget(Widget(size_hint_y=None, height=10 * u))
        table.add_widget(self.text(tr("Against the computer"), u, size=18, color=GOLD,
                                   bold=True))
        order = {g: k for k, g in enumerate(self.app.all_game_ids())}
        levels = list(variants.LEVELS)
        entries = sorted(entries, key=lambda e: (order.get(e.get("game"), 999),
                                                 str(e.get("game")),
                                                 levels.index(e["level"]) if e.get("level")
                                                 in levels else 99, str(e.get("level"))))
        for e in entries:
            level = e.get("level")
            level_name = tr(variants.LEVELS[level][0]) if level in variants.LEVELS else \
                (level or "?")
            block = self.column(u)
            block.spacing = 2 * u
            block.padding = (0, 6 * u, 0, 4 * u)
            block.add_widget(self.text(f"{self.game_name(e.get('game') or '?')} · "
                                       f"{level_name}", u, bold=True))
            lines = [tr("Matches played to the end: {n}, won by the visitor: {won}",
                        n=e["matches"], won=e["matches_won"]),
                     tr("Hands: {n}; the visitor won {won}, lost {lost}, tied or split {tied}",
                        n=e["hands"], won=e["hands_won"], lost=e["hands_lost"],
                        tied=e["hands_drawn"])]
            if "chips_won" in e:
                lines.append(tr("Chips: the visitor won {won} and lost {lost}",
                                won=e["chips_won"], lost=e["chips_lost"]))
            for line in lines:
                block.add_widget(self.text(line, u, size=16, color=(1, 1, 1, 0.85)))
            table.add_widget(block)

    def _row(self, cells, widths, u: float, *, head: bool = False,
             gold: bool = False) -> BoxLayout:
        """A row of the solitaires' table; the game's name wraps to as many lines as it
        needs (never shortened), and the row grows with it."""
        row = BoxLayout(size_hint_y=None, height=(34 if head else 38) * u, spacing=6 * u,
                        padding=(0, 0, 16 * u, 0))
        color = GOLD if gold else (1, 1, 1, 0.7 if head else 0.95)
        size = (15 if head else 17) * u
        for k, (text, wd) in enumerate(zip(cells, widths, strict=True)):
            # every cell wraps and shrinks a little rather than lose letters ("Пар…" for
            # "Партии" in a portrait column); the name breaks where Unicode allows
            lab = FitLabel(text=text, size_hint_x=wd, font_size=size, bold=head or gold,
                           color=color, mode="grow", pad_y=4 * u, min_font=size * 0.8,
                           halign="left" if k == 0 else "right", words_only=k > 0,
                           size_hint_y=None, pos_hint={"center_y": 0.5})
            lab.bind(height=lambda _lab, _h, r=row, base=row.height: self._fit_row(r, base))
            row.add_widget(lab)
        return row

    @staticmethod
    def _fit_row(row: BoxLayout, base: float) -> None:
        row.height = max([base, *(c.height for c in row.children)])


PAGE = StatsPage
