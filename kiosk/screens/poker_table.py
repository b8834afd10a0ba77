"""The Draw Poker table: the visitor against 1 to 7 computer players, for chips, by touch.

Why a screen of its own: Gin's table shows one opponent and a discard pile; here up to seven
players bet in turn, so the table is a row of seats (cards, chips, last action), the pot,
and buttons that change with the betting round. As at the Gin table, every move goes
through the :class:`~kiosk.table.controller.TableController` (so the play log records each
hand and the idle timer and the lobby work unchanged) and the computer decides in
:class:`~kiosk.table.gin_turns.ComputerTurns`, off the UI thread, with a pause so a person
can follow each action, which is also said in words ("Player 3 raises to 40.").
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout

from games.draw_poker import BET_KINDS
from games.engine.model import Move
from games.families.seats import VISITOR
from kiosk.screens.seated_table import KEPT_LINE, SeatedTableScreen, header_label
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, Felt, KButton, fit_font
from kiosk.table.gin_turns import Text, _
from kiosk.table.hand_fan import HandFan
from kiosk.table.poker_seat import PokerSeat
from kiosk.table.poker_words import (
    action_words,
    button_specs,
    end_lines,
    hand_name,
    hold_tip,
    poker_order,
    prompt,
    render,
    result_lines,
)

#: seconds each computer player waits before it acts, so a person can follow the round
COMPUTER_PAUSE = 0.8


class PokerTableScreen(SeatedTableScreen):
    def __init__(self, **kw) -> None:
        super().__init__("poker", COMPUTER_PAUSE, **kw)
        self.marked: set[int] = set()
        self.said: Text | None = None
        self.refusal = ""
        self.tags: dict[int, Text] = {}
        self._deal_key: tuple[int, int] = (0, 0)
        self._px = 20.0
        root = FloatLayout()
        self.add_widget(root)
        root.add_widget(Felt())
        self.header = header_label()
        self.home = KButton(size_hint=(None, None), bold=True)
        self.home.bind(on_release=lambda *_a: self.ask_leave())
        self.seats_box = FloatLayout(size_hint=(None, None))
        self.seats: list[PokerSeat] = []
        self.pot = Label(bold=True, color=GOLD, halign="center", valign="middle",
                         size_hint=(None, None))
        self.message = Label(halign="center", valign="middle", size_hint=(None, None))
        self.my_hand = Label(halign="center", valign="middle", size_hint=(None, None),
                             color=GOLD, bold=True)
        self.actions = BoxLayout(spacing=10, size_hint=(None, None))
        self.mine = HandFan(on_pick=self.pick, size_hint=(None, None))
        for w in (self.header, self.home, self.seats_box, self.pot, self.message,
                  self.my_hand, self.actions, self.mine):
            root.add_widget(w)
        self.root_layout = root
        self.bind(size=self._arrange)

    # ------------------------------------------------------------------ sitting down
    def reset_deal(self) -> None:
        self.marked, self.said, self.refusal, self.tags = set(), None, "", {}
        g = self.game
        self._deal_key = (g.vars["hand_no"], g.vars["deal_no"])
        self._build_seats()

    # ------------------------------------------------------------------ moves
    def _tick(self, _dt: float = 0) -> None:
        if self.leaving:
            return
        move = self.computer_move()
        if move is None:
            return
        g = self.game
        seat = g.to_move
        before = g.vars["contrib"][seat]
        if self.ctl.play(move, "computer") is not None:
            return  # refused: the next tick asks again
        self._after(seat, move, before)

    def _after(self, seat: int, move: Move, before: int) -> None:
        """Remember what ``seat`` did (its tag, and the sentence for a computer); a new
        deal after everyone passed is said, and clears the tags."""
        g = self.game
        key = (g.vars["hand_no"], g.vars["deal_no"])
        if key != self._deal_key:
            self.tags, self.marked = {}, set()
            if key[0] == self._deal_key[0]:  # the same hand dealt again: a pass-out
                self.said = (_("Nobody opened: the cards are dealt again and the pot "
                               "of {pot} stays."), {"pot": g.vars["pot"]})
            elif seat != VISITOR:
                self.said = None
            self._deal_key = key
            self._build_seats()
        elif move.kind != "next":
            paid = g.vars["contrib"][seat] - before if move.kind in BET_KINDS else 0
            sentence, tag = action_words(seat, move, paid, g.vars["level"])
            self.tags[seat] = tag
            if seat != VISITOR:
                self.said = sentence
        self.refresh()

    def pick(self, code: int) -> None:
        """A tap on a card in the draw: mark it for exchange, or unmark it."""
        if self.ctl is not None:
            self.ctl.touched()
        g = self.game
        if g is None or g.phase != "draw" or g.to_move != VISITOR:
            return
        self.marked ^= {code}
        self.refresh()

    def play(self, move: Move | None) -> None:
        """A tap on an action button (None: exchange the marked cards)."""
        g = self.game
        if move is None:
            move = Move("draw", extra=tuple(sorted(self.marked)))
        before = g.vars["contrib"][VISITOR]
        refused = self.ctl.play(move, "touch")
        if refused is not None:
            self.refusal = self.app.tr_reason(refused)
            self.refresh()
            return
        self.refusal = ""
        if move.kind == "draw":
            self.marked = set()
        if move.kind == "next":
            self.said = None
        self._after(VISITOR, move, before)

    def next_hand(self) -> None:
        self.play(Move("next"))

    def say(self, text: Text) -> None:
        """A refusal or an explanation stays under the words until the next move."""
        self.refusal = self.render(text)
        self.refresh()

    def render(self, text: Text) -> str:
        return render(text, self.app.tr, self.app.trn) if text[0] != "{reason}" \
            else text[1]["reason"]

    # ------------------------------------------------------------------ drawing
    def _build_seats(self) -> None:
        g = self.game
        want = g.n - 1 if g is not None else 0
        while len(self.seats) < want:
            seat = PokerSeat(size_hint=(None, None))
            self.seats.append(seat)
            self.seats_box.add_widget(seat)
        while len(self.seats) > want:
            self.seats_box.remove_widget(self.seats.pop())
        self._arrange()  # a portrait table needs a second row of seats past four

    def refresh(self, *_a) -> None:
        g = self.game
        if g is None:
            return
        tr, trn = self.app.tr, self.app.trn
        self.home.text = tr("Leave")
        chips = g.vars["chips"]
        self.header.text = tr("Hand {n} · Your chips: {chips}", n=g.vars["hand_no"],
                              chips=chips[VISITOR])
        ended = g.phase in ("done", "over")
        result = (g.vars["result"] or None) if ended else None
        self.pot.text = tr("Pot\n{pot}", pot=result["pot"] if result else g.vars["pot"])
        for k, seat in enumerate(self.seats, 1):
            self._show_seat(seat, k, result)
        hand = poker_order(g.hand(VISITOR))
        self.mine.show(hand, marked=self.marked & set(hand))
        self.mine.active = g.phase == "draw" and g.to_move == VISITOR and not self.leaving
        self.mine.opacity = 1 if g.vars["live"][VISITOR] or ended else 0.5
        self.my_hand.text = tr("Your hand: {hand}", hand=tr(hand_name(g.value(VISITOR)))) \
            if hand else ""
        lines = []
        if result:  # the showdown says it all; the last action is under its seat
            lines += result_lines(result, tr)
        elif self.said is not None:
            lines.append(render(self.said, tr, trn))
        if self.refusal:
            lines.append(self.refusal)
        elif g.phase == "draw" and g.to_move == VISITOR and self.app.learning(
                self.ctl.game_id):  # the first hand's tip, which says what the prompt says
            lines.append(hold_tip(g.hand(VISITOR), g.rule, tr))
        elif not ended:
            lines.append(render(prompt(g), tr, trn))
        self.message.text = "\n".join(lines[-3:])
        self._fit_texts()
        self._buttons()
        self._panel()

    def _show_seat(self, widget: PokerSeat, seat: int, result: dict | None) -> None:
        g = self.game
        tr, trn = self.app.tr, self.app.trn
        chips = g.vars["chips"][seat]
        seated, live = g.vars["seated"][seat], g.vars["live"][seat]
        shown = bool(result) and seat in result["shown"]
        if shown:
            words = tr(hand_name(result["values"][seat]))
        elif not seated:
            words = tr("out of chips")
        else:
            tag = self.tags.get(seat)
            words = render(tag, tr, trn) if tag else (
                tr("dealer") if seat == g.vars["dealer"] else "")
        if result:  # a seat that took any pot, a side pot too, is marked as a winner
            takers = {w for pot in result.get("pots", ()) for w in pot["winners"]}
            takers |= set(result["winners"])
            state = "won" if seat in takers else "out" if not live else "idle"
        elif not live or not seated:
            state = "out"
        else:
            state = "turn" if g.to_move == seat else "idle"
        widget.show(tr("Player {n}", n=seat), trn("{n} chip", "{n} chips", chips), words,
                    poker_order(g.hand(seat)) if seated else [], shown, state)

    def _fit_texts(self) -> None:
        """The header and the words shrink until they fit (Russian runs long)."""
        self.header.font_size = self._px * 1.05
        self._shrink(self.my_hand, self._px)
        self._shrink(self.message, self._px)

    @staticmethod
    def _shrink(label: Label, px: float) -> None:
        """Wrapped to its width, smaller until it fits its height."""
        label.font_size = px
        label.text_size = (label.width, None)
        label.texture_update()
        while (label.texture_size[1] > label.height * 0.95
               or label.texture_size[0] > label.width) and label.font_size > 10:
            label.font_size *= 0.9
            label.texture_update()
        label.text_size = label.size

    def _buttons(self) -> None:
        tr, trn = self.app.tr, self.app.trn
        g = self.game
        self.actions.clear_widgets()
        specs: list[tuple[str, Any, bool]] = []
        if self.leaving or g.phase == "over":
            pass  # the end panel has the buttons
        elif g.phase == "done":
            specs.append((tr("Next hand"), lambda: self.play(Move("next")), True))
        else:
            for text, move, main in button_specs(g, len(self.marked)):
                specs.append((render(text, tr, trn), lambda m=move: self.play(m), main))
        h = self.actions.height
        wide = self.width > self.height
        self.actions.width = min(self.width * 0.96, max(1, len(specs)) * self.width *
                                 (0.26 if wide else 0.42))
        self.actions.x = (self.width - self.actions.width) / 2
        each = (self.actions.width - 10 * (len(specs) - 1)) / max(1, len(specs))
        for text, action, main in specs:
            b = KButton(text=text, bold=True,
                        font_size=min(h * 0.36, fit_font(text, h * 0.36, each * 0.9, True)))
            if main:
                b.bg = (*GOLD[:3], 0.35)
            b.bind(on_release=lambda *_a, f=action: f())
            self.actions.add_widget(b)

    def panel_content(self) -> tuple[str, str, list[tuple[str, Any, bool]]] | None:
        """The end of the visit (out of chips, every chip won), or the Leave question with
        the chips so far."""
        g = self.game
        if not (self.leaving or g.phase == "over"):
            return None
        tr = self.app.tr
        title, line = end_lines(g, self.leaving and g.phase != "over", tr)
        if g.phase == "over":
            return title, line, [(tr("Play again"), self.again, True),
                                 (tr("Games"), self.go_home, False)]
        return title, line + "\n" + tr(KEPT_LINE), [
            (tr("Leave the table"), self.go_home, True), (tr("Keep playing"), self.stay, False)]

    # ------------------------------------------------------------------ layout
    def _place_seats(self) -> None:
        n = len(self.seats)
        if not n:
            return
        W, H = self.seats_box.size
        x0, y0 = self.seats_box.pos
        per_row = n if W > H * 2.5 or n <= 4 else 4
        rows = (n + per_row - 1) // per_row
        gap = W * 0.012
        w = min((W - gap * (per_row - 1)) / per_row, W * 0.24)
        h = (H - gap * (rows - 1)) / rows
        for k, seat in enumerate(self.seats):
            r, c = divmod(k, per_row)
            in_row = min(per_row, n - r * per_row)
            left = x0 + (W - (in_row * w + (in_row - 1) * gap)) / 2
            seat.size = (w, h)
            seat.pos = (left + c * (w + gap), y0 + H - (r + 1) * h - r * gap)

    def _arrange(self, *_a) -> None:
        W, H = self.size
        portrait = H > W
        top = self.place_home(W, H, 0.06 if portrait else 0.09)
        self._px = min(H, W) * (0.04 if portrait else 0.042)
        self.place_header(self.header, W, H, top, self._px * 1.05)
        hand_h = H * (0.16 if portrait else 0.27)
        self.mine.size = (W * (0.9 if portrait else 0.56), hand_h)
        self.mine.pos = ((W - self.mine.width) / 2, H * 0.01)
        side = (W - self.mine.width) / 2 - W * 0.02
        if portrait:  # the hand's name over the hand, the pot beside the words
            self.my_hand.size = (W * 0.9, H * 0.03)
            self.my_hand.pos = (W * 0.05, self.mine.top)
            under_actions = self.my_hand.top
        else:  # the pot left of the hand, its name right of it
            self.my_hand.size = (side, hand_h * 0.7)
            self.my_hand.pos = (self.mine.right + W * 0.01, self.mine.y + hand_h * 0.15)
            under_actions = self.mine.top
        act_h = H * (0.065 if portrait else 0.11)
        self.actions.height = act_h
        self.actions.y = under_actions + H * 0.005
        rows = (len(self.seats) + 3) // 4 if portrait else 1
        seats_h = H * (0.15 * max(1, rows) if portrait else 0.27)
        self.seats_box.size = (W * 0.98, seats_h)
        self.seats_box.pos = (W * 0.01, H - top - seats_h - H * 0.005)
        mid_bottom = self.actions.top + H * 0.01
        mid_h = self.seats_box.y - H * 0.01 - mid_bottom
        if portrait:
            pot_w = W * 0.18
            self.pot.size = (pot_w, mid_h)
            self.pot.pos = (W * 0.02, mid_bottom)
            self.message.size = (W - pot_w - W * 0.06, mid_h)
            self.message.pos = (self.pot.right + W * 0.02, mid_bottom)
        else:
            self.pot.size = (side, hand_h * 0.7)
            self.pot.pos = (W * 0.01, self.mine.y + hand_h * 0.15)
            self.message.size = (W * 0.94, mid_h)
            self.message.pos = (W * 0.03, mid_bottom)
        self.pot.font_size = min(self.pot.height * 0.3, self._px * 1.3)
        self.pot.text_size = self.pot.size
        self.message.text_size = self.message.size
        self.my_hand.text_size = self.my_hand.size
        self._place_seats()
        self.refresh()
