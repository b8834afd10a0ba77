"""What every table against the computer shares, whatever the game.

Gin Rummy, Draw Poker and Follow the Rules differ in what lies on the table and which
buttons the moment needs, but each sits at a :class:`~kiosk.table.controller.TableController`
(so the play log, the idle timer and the lobby serve it as any table), redraws from the game
after every deal, and lets the computer move only while the screen is shown: its decision
is asked in the background (:class:`~kiosk.table.gin_turns.ComputerTurns`, never on the UI
thread) and played by the Kivy clock after a pause a person can follow. A subclass draws
(``refresh``), resets what belongs to one deal (``reset_deal``) and plays the computer's
moves in ``_tick`` with :meth:`computer_move`.

Leaving never throws a match away by one touch: the Leave button asks first, with the
score so far (:class:`EndPanel`), and a match left in progress is kept, so choosing the
same game again in the same visit brings it back (as a solitaire table keeps a game on its
controller's shelf; the idle timeout forgets it for the next visitor).

Learning at the table: the Rules button (top right, where Leave is top left) opens the same
Rules sheet as a solitaire's, with the game's "how to play this hand" first and the deck
switch under it; the computer waits while it is up. The first hand of each game in a
visit shows one-line tips at the moments they matter (:meth:`tip`); the app forgets which
games were learnt when the visit ends (idle, the welcome screen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import Screen

from games.engine.model import Move
from kiosk.platform.buttons import NEW_DEAL, PICKER, UNDO
from kiosk.screens.rules_sheet import RulesSheet, light_deck
from kiosk.screens.text_fit import READ_PX, TOUCH_PX, FitLabel, text_width
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, KButton, fit_font
from kiosk.table.card_art import CardWidget
from kiosk.table.controller import TableController
from kiosk.table.gin_turns import ComputerTurns, Text, _
from kiosk.table.hand_fan import HandFan

#: how often the clock looks whether the computer's move is ready (seconds)
TICK = 0.05
#: a KButton draws its face this much inside its box on every side (kiosk/screens/widgets.py)
BUTTON_INSET = 2
#: a button in sight but not possible yet (Gin's Knock before the deadwood allows it):
#: sunk darker than the felt, its words grey yet 4.5:1 on it
GREYED_BG = (0, 0, 0, 0.25)
GREYED_INK = (0.8, 0.83, 0.8, 1)


def touch_px(width: float, height: float) -> float:
    """The smallest touch target a visitor sees on a screen of this size: ``TOUCH_PX`` (9 mm
    on a 7" 800x480 panel), scaled with the short side on larger screens."""
    return TOUCH_PX * min(width, height) / 480


def fit_in_box(label: Any, px: float, pos: tuple[float, float],
               size: tuple[float, float], floor: float | None = None) -> None:
    """Fit a :class:`~kiosk.screens.text_fit.FitLabel` in ``mode="grow"`` (broken by
    Unicode's rules, as tall as its lines) into a box: smaller until it is no taller than
    the box, never under ``floor`` (the reading floor of the window: a Gin lay-off said in
    Russian was drawn at 16 px), then centred in it. Why not the label's own box mode:
    Kivy drops a last line that the fit measured to fit ("The computer is thinking…" under
    two lines)."""
    if floor is None:
        from kivy.core.window import Window

        floor = READ_PX * min(Window.size) / 480
    label.min_font = floor
    px = max(px, floor)
    label.width = size[0]
    label.x = pos[0]
    while True:
        label.font_size = px  # the label refits its lines when the size changes
        label.texture_update()  # ... and when only its text did, measured here
        label.height = max(label.texture_size[1], 1)
        if label.height <= size[1] or px <= floor:
            break
        px = max(floor, px * 0.9)
    label.y = pos[1] + (size[1] - label.height) / 2


def match_finished(game: Any) -> bool:
    """The match (or the poker visit) is over: nothing of it is worth keeping."""
    return bool(game.won or game.lost or game.phase in ("match", "over"))


def back_text() -> Text:
    return _("Welcome back: your game goes on."), {}


def new_deal_off_text() -> Text:
    """Why the New deal button does nothing now (it would throw the hand away)."""
    return _("New deal is off until this hand is over: it would throw your hand away."), {}


class SeatedTableScreen(Screen):
    """A table against the computer named ``name``; the computer waits ``pause`` seconds
    before each move."""

    def __init__(self, name: str, pause: float, **kw) -> None:
        super().__init__(name=name, **kw)
        self.ctl: TableController | None = None
        self.turns = ComputerTurns(pause)
        self._tick_ev = None
        #: the words of the moment (a refusal, the computer's move), until the next move
        self.said: Text | None = None
        #: the Leave panel is up (the computer waits while the visitor decides)
        self.leaving = False
        self.end = EndPanel()
        #: the screen's root layout, which the Leave panel covers (set by a subclass)
        self.root_layout: FloatLayout | None = None
        #: the Rules button, top right (placed by :meth:`place_home`)
        self.rules_button = KButton(size_hint=(None, None), bold=True)
        self.rules_button.bind(on_release=lambda *_a: self.show_rules())
        #: the Rules sheet while it is up (the computer waits)
        self.rules_sheet: RulesSheet | None = None
        app = App.get_running_app()
        if app is not None:  # every card at this table follows the visitor's deck
            app.bind(four_colour=self._recolour)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    @property
    def game(self) -> Any:
        return self.ctl.game if self.ctl is not None else None

    # ------------------------------------------------------------------ sitting down
    def start(self, controller: TableController) -> None:
        if self.ctl is not None:
            self.ctl.unbind(on_new_deal=self._dealt, on_move=self._moved)
        self.ctl = controller
        controller.bind(on_new_deal=self._dealt, on_move=self._moved)
        back = self._bring_back(controller)
        self._dealt()
        if back:
            self.say(back_text())

    @staticmethod
    def _bring_back(controller: TableController) -> bool:
        """The visitor left this game's match in progress and chose the game again: the
        lobby put it on the fresh table's shelf; it comes back in place of the new deal."""
        kept = controller.shelf_top
        if controller.game.history or kept is None or match_finished(kept):
            return False
        return controller.undo("tap")

    def _moved(self, *_a) -> None:
        """A hand of this game has been scored: the visitor has played one, and its table
        gives no more tips this visit. Heard from the move itself, not from a redraw: a
        redraw of a finished hand comes after the visit too (the welcome screen's language
        switch redraws every screen), and must not spoil the next visitor's first hand."""
        g = self.game
        if g is not None and (g.phase == "done" or match_finished(g)):
            self.app.learnt(self.ctl.game_id)

    def _dealt(self, *_a) -> None:
        self.turns.cancel()
        self.leaving = False
        self.close_rules()
        self.reset_deal()
        self._recolour()  # a new seat's cards too (Draw Poker builds its seats here)
        self.refresh()

    def reset_deal(self) -> None:
        """Forget what belonged to the last deal (a raised card, the computer's words)."""

    def refresh(self) -> None:
        raise NotImplementedError

    def on_enter(self, *_a) -> None:
        if self._tick_ev is None:
            self._tick_ev = Clock.schedule_interval(self._tick, TICK)

    def on_leave(self, *_a) -> None:
        self.close_rules()  # the next visitor never finds the last one's sheet open
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        self.turns.cancel()

    # ------------------------------------------------------------------ leaving
    def ask_leave(self) -> None:
        """The Leave button: a panel with the score so far asks before the picker."""
        if self.ctl is not None:
            self.ctl.touched()
        self.leaving = True
        self.refresh()

    def stay(self) -> None:
        self.leaving = False
        self.refresh()

    def go_home(self) -> None:
        """To the picker; a match in progress stays kept (:meth:`_bring_back`)."""
        if self.ctl is not None:
            self.ctl.leave("button")
        self.leaving = False
        self.close_rules()
        self._panel()
        self.app.show_picker(self.ctl.game_id if self.ctl else None)

    def leave_lines(self) -> tuple[str, str]:
        """The Leave panel's title and line: the score so far, and that the match is kept."""
        tr, g = self.app.tr, self.game
        you, them = g.final_scores
        return (tr("Leave the table?"),
                tr("Hand {n}: you {you}, the computer {them}.", n=g.vars["hand_no"],
                   you=you, them=them) + "\n" + tr(KEPT_LINE))

    def panel_content(self) -> tuple[str, str, list[tuple[str, Callable[[], Any], bool]]] | None:
        """What the panel over the table shows now (None: no panel)."""
        if not self.leaving:
            return None
        tr = self.app.tr
        title, line = self.leave_lines()
        return title, line, [(tr("Leave the table"), self.go_home, True),
                             (tr("Keep playing"), self.stay, False)]

    def _panel(self) -> None:
        """Put the panel up or take it down, as :meth:`panel_content` says."""
        content = self.panel_content() if self.game is not None else None
        root = self.root_layout
        if content is None or root is None:
            if self.end.parent is not None:
                self.end.parent.remove_widget(self.end)
            return
        self.end.show(*content, self.size)
        if self.end.parent is None:
            root.add_widget(self.end)

    def place_home(self, W: float, H: float, share: float) -> float:
        """Place the Leave button at the top left and the Rules button at the top right, a
        full touch target high (the top bar grows past ``share`` of the height for them);
        returns the top bar's height. The header goes between them (:meth:`header_box`)."""
        touch = touch_px(W, H) + 2 * BUTTON_INSET  # the face a finger sees is 48 px
        top = max(H * share, touch * 1.1)
        margin = 6
        home, rules = self.home, self.rules_button
        tr = self.app.tr
        home.text, rules.text = tr("Leave"), tr("Rules")
        px = min(top * 0.4, touch * 0.45)
        # both as wide as the wider word needs ("Правила"), never narrower than a share
        # of the screen, so the header between them stays centred
        words = max(text_width(str(b.text), px, b.font_name, True) for b in (home, rules))
        width = min(W * 0.3, max(W * (0.16 if H > W else 0.14), touch * 1.5,
                                 words + 2 * (home.inset + BUTTON_INSET) + px * 0.6))
        for b in (home, rules):
            b.size, b.font_size = (width, touch), px
        home.pos = (margin, H - top + (top - touch) / 2)
        rules.pos = (W - margin - width, home.y)
        if rules.parent is None and self.root_layout is not None:
            self.root_layout.add_widget(rules, index=0 if self.end.parent is None else 1)
        return top

    def header_box(self, margin: float) -> tuple[float, float]:
        """The header's x and width: between the Leave and the Rules buttons."""
        x = self.home.right + margin
        return x, max(1.0, self.rules_button.x - margin - x)

    def place_header(self, label: FitLabel, W: float, H: float, top: float,
                     px: float) -> None:
        """The header line between the corner buttons, wanted at ``px``: in landscape one
        line high, so it shrinks to the reading floor before it breaks; in portrait, where
        the buttons leave it a narrow box, it may take two lines, never a size under the
        floor (a number stays with its word: ``glue_numbers``)."""
        margin = 8 * min(W, H) / 480
        x, width = self.header_box(margin)
        label.min_font = READ_PX * min(W, H) / 480
        line = top if H > W else min(top, px * 1.6)
        label.pos, label.size = (x, H - top + (top - line) / 2), (width, line)
        label.font_size = px


    # ------------------------------------------------------------------ the rules
    def show_rules(self) -> None:
        """The Rules sheet over the table: how to play a hand, then the rules, and the deck
        switch; the computer waits until Close."""
        if self.ctl is None or self.root_layout is None:
            return
        self.ctl.touched()
        self.close_rules()
        sheet = RulesSheet(self.ctl.game_id, tuple(self.size), self.close_rules,
                           self.switch_deck, lead=True)
        sheet.place(tuple(self.size))
        self.rules_sheet = sheet
        self.root_layout.add_widget(sheet)

    def close_rules(self) -> None:
        sheet, self.rules_sheet = self.rules_sheet, None
        if sheet is not None and sheet.parent is not None:
            sheet.parent.remove_widget(sheet)

    def switch_deck(self) -> None:
        """The four-colour deck on or off for this visit, at every table (the app's
        setting: the cards here follow it, :meth:`_recolour`)."""
        self.app.four_colour = not self.app.four_colour
        if self.rules_sheet is not None:
            light_deck(self.rules_sheet.deck_button)

    def _recolour(self, *_a) -> None:
        """Every card at this table in the visitor's deck (two or four colours)."""
        app = self.app
        four = bool(app.four_colour) if app is not None else False
        for w in self.walk(restrict=True):
            if isinstance(w, CardWidget | HandFan):
                w.four_colour = four

    # ------------------------------------------------------------------ the buttons
    def on_button(self, event: str, source: str = "gpio") -> None:
        """A hardware button (or the keys U, N, P): Undo and New deal say why they are off
        while a hand is played; the picker button leaves (the match is kept). New deal
        deals the next hand after one, and a new match after a match."""
        if self.ctl is None or self.game is None:
            return
        self.ctl.pressed(event)
        phase = self.game.phase
        if event == UNDO:
            self.say(("{reason}", {"reason": self.app.tr_reason(self.game.undo_refusal)}))
        elif event == PICKER:
            self.go_home()
        elif event == NEW_DEAL and match_finished(self.game):
            self.again()
        elif event == NEW_DEAL and phase == "done":
            self.next_hand()
        elif event == NEW_DEAL:
            self.say(new_deal_off_text())

    def say(self, text: Text) -> None:
        """Show ``text`` in the table's words until the next move."""
        self.said = text
        self.refresh()

    def render(self, text: Text) -> str:
        msgid, fields = text
        if msgid == "{reason}":
            return fields["reason"]
        return self.app.tr(msgid, **fields)

    def retranslate(self) -> None:
        if self.rules_sheet is not None:
            self.show_rules()  # built again in the new language
        self._arrange()  # the corner buttons' words have other widths: laid out again

    def _arrange(self, *_a) -> None:
        """Lay the table out for its size and words (a subclass's layout), then redraw."""
        raise NotImplementedError

    def again(self) -> None:
        """A new match (the end of a match's button)."""
        self.ctl.new_deal(source="button")

    def next_hand(self) -> None:
        self.said = None
        self.play(Move("next"))

    def play(self, move: Move) -> None:
        raise NotImplementedError

    def between_hands_buttons(self) -> list[tuple[str, Callable[[], Any], bool]] | None:
        """The buttons after a hand (Next hand) and after a match (New match, Games), the
        same at every table that plays matches of hands; None while a hand is played."""
        tr, phase = self.app.tr, self.game.phase
        if phase == "done":
            return [(tr("Next hand"), self.next_hand, True)]
        if phase == "match":
            return [(tr("New match"), self.again, True), (tr("Games"), self.go_home, False)]
        return None

    def _show_score(self, g: Any) -> None:
        """The Leave button's word and the header of a match of hands: the hand's number
        and both match scores."""
        tr = self.app.tr
        self.home.text = tr("Leave")
        you, them = g.final_scores
        self.score.text = tr("Hand {n} · You {you} · Computer {them}", n=g.vars["hand_no"],
                             you=you, them=them)

    def _stack_hands(self, W: float, H: float, top: float, portrait: bool,
                     heights: tuple[tuple[float, float], tuple[float, float],
                                    tuple[float, float]],
                     theirs_across: tuple[float, float]) -> tuple[float, float]:
        """The visitor's hand along the bottom, the buttons above it and the computer's hand
        under the header (``top`` high), as the two-player tables lay them out. ``heights``:
        the three as shares of the screen's height (portrait, landscape); ``theirs_across``:
        the computer's hand's x and width as shares of the width. Gives the band left
        between them for the table: its top and its bottom."""
        (hand_p, hand_l), (act_p, act_l), (their_p, their_l) = heights
        hand_h = H * (hand_p if portrait else hand_l)
        self.mine.size = (W * 0.98, hand_h)
        self.mine.pos = (W * 0.01, H * 0.01)
        self.actions.height = H * (act_p if portrait else act_l)
        self.actions.y = self.mine.top + H * 0.01
        their_h = H * (their_p if portrait else their_l)
        self.theirs.size = (W * theirs_across[1], their_h)
        self.theirs.pos = (W * theirs_across[0], H - top - their_h - H * 0.01)
        return self.theirs.y - H * 0.01, self.actions.top + H * 0.01

    def _buttons(self) -> None:
        """The buttons between hands, else the game's own choices of the moment; none while
        the Leave panel asks (its two choices are the only ones: Next hand lay under it)."""
        if self.leaving:
            self.show_buttons([])
            return
        specs = self.between_hands_buttons()
        self.show_buttons(specs if specs is not None else self._hand_buttons())

    def _hand_buttons(self) -> list[tuple[str, Callable[[], Any], bool]]:
        """The choices of the moment while a hand is played (the table's own)."""
        raise NotImplementedError

    def show_buttons(self, specs: list[tuple[Any, ...]]) -> None:
        """The row of big buttons for this moment: (text, action, the main choice[,
        greyed]), the main ones in gold, a greyed one dark (not possible yet: a tap says
        why), centred above the hand."""
        self.actions.clear_widgets()
        h = self.actions.height
        floor = READ_PX * min(self.size) / 480  # a shorter table (attract mode's) too
        for text, action, main, *greyed in specs:
            b = KButton(text=text, bold=True, min_font=floor, font_size=max(floor, h * 0.36))
            if greyed and greyed[0]:
                b.bg, b.color = GREYED_BG, GREYED_INK
                b.greyed = True
            elif main:
                b.bg = (*GOLD[:3], 0.35)
            b.bind(on_release=lambda *_a, f=action: f())
            self.actions.add_widget(b)
        self.actions.width = min(self.width * 0.96, max(1, len(specs)) * self.width *
                                 (0.3 if self.width > self.height else 0.46))
        self.actions.x = (self.width - self.actions.width) / 2

    # ------------------------------------------------------------------ the computer
    def computer_move(self) -> Move | None:
        """The computer's move once it is decided and its pause is over, else None (the
        question is put to the background worker on the first call of a position)."""
        g = self.game
        if g is None or not g.computer_to_move or self.leaving or self.rules_sheet is not None:
            return None
        self.turns.ask(g)
        return self.turns.ready(g)

    def _tick(self, _dt: float = 0) -> None:
        raise NotImplementedError

    def demo_step(self) -> bool:
        """Attract mode: the seat to move plays one move, as the table shows it when a
        visitor sits there: a computer seat through the table's own turn (with the screen's
        ``turns`` answering at once), the visitor's seat by the game's computer player,
        from that seat's view, through the table's buttons' path. False when no move was
        made (the hand or the game is over)."""
        g = self.game
        if g is None or not g.legal_moves():
            return False
        made = len(g.history)
        if g.computer_to_move:
            self._tick()
        else:
            self.play(g.computer_move())
        return len(g.history) > made


def header_label() -> FitLabel:
    """The header of a hand table (the hand and the score, or the chips): broken by
    Unicode's rules at spaces only, shrunk to the floor first (:meth:`place_header`)."""
    return FitLabel(bold=True, halign="center", valign="middle", size_hint=(None, None),
                    words_only=True, glue_numbers=True)


#: the Leave panel's last line (every table against the computer keeps a match left)
KEPT_LINE = _("Your game is kept: choose this game again to go on.")


class EndPanel(FloatLayout):
    """A panel over the table: how the match or the visit stands, and what a tap does next
    (leave, keep playing, play again)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        with self.canvas.before:
            Color(0.02, 0.1, 0.05, 0.95)
            self._rect = Rectangle()
        self.title = Label(bold=True, color=GOLD, halign="center", valign="middle",
                           size_hint=(None, None))
        self.line = FitLabel(halign="center", valign="middle", size_hint=(None, None),
                             min_font=12)
        self.choices = BoxLayout(spacing=16, size_hint=(None, None))
        for w in (self.title, self.line, self.choices):
            self.add_widget(w)

    def on_touch_down(self, touch) -> bool:
        super().on_touch_down(touch)
        return True  # the table under the panel does not answer while it is up

    def show(self, title: str, line: str, choices: list[tuple[str, Any, bool]],
             size: tuple[float, float]) -> None:
        W, H = size
        self.size, self.pos = (W, H), (0, 0)
        self._rect.pos, self._rect.size = (0, 0), (W, H)
        u = min(W, H) / 480
        self.title.text, self.line.text = title, line
        self.title.size = (W * 0.9, 60 * u)
        self.title.pos = (W * 0.05, H * 0.62)
        self.title.font_size = fit_font(title, 34 * u, W * 0.88, bold=True)
        self.line.size = (W * 0.86, 110 * u)
        self.line.pos = (W * 0.07, H * 0.62 - 116 * u)
        self.title.text_size = self.title.size
        # broken by Unicode's rules (Kivy's own wrapping split "继续 / 。") and smaller, from
        # rung to rung, until every line fits the box, drawn centred in it
        self.line.min_font = READ_PX * u
        self.line.font_size = 21 * u
        self.choices.clear_widgets()
        bw = min(W * 0.42, 300 * u)
        self.choices.size = (bw * len(choices) + 16 * (len(choices) - 1), 64 * u)
        self.choices.pos = ((W - self.choices.width) / 2, H * 0.62 - 210 * u)
        for text, action, main in choices:
            b = KButton(text=text, bold=True,
                        font_size=fit_font(text, 22 * u, bw * 0.88, bold=True))
            if main:
                b.bg = (*GOLD[:3], 0.35)
            b.bind(on_release=lambda *_a, f=action: f())
            self.choices.add_widget(b)
