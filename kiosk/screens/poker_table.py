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
from kiosk.screens.font_ladder import rung
from kiosk.screens.seated_table import (
    BUTTON_INSET,
    KEPT_LINE,
    SeatedTableScreen,
    header_label,
    touch_px,
)
from kiosk.screens.text_fit import READ_PX, FitLabel, fit_slack, text_width
from kiosk.screens.widgets import GOLD, Felt, KButton, fit_font
from kiosk.table.gin_turns import Text, _
from kiosk.table.hand_fan import HandFan
from kiosk.table.poker_seat import PokerSeat, seat_line
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
        self._px = self._pot_px = 20.0
        self._floor = READ_PX
        root = FloatLayout()
        self.add_widget(root)
        root.add_widget(Felt())
        self.header = header_label()
        self.home = KButton(size_hint=(None, None), bold=True)
        self.home.bind(on_release=lambda *_a: self.ask_leave())
        self.seats_box = FloatLayout(size_hint=(None, None))
        self.seats: list[PokerSeat] = []
        self.pot = FitLabel(bold=True, color=GOLD, halign="center", valign="middle",
                            size_hint=(None, None))
        self.message = FitLabel(halign="center", valign="middle", size_hint=(None, None))
        self.my_hand = FitLabel(halign="center", valign="middle", size_hint=(None, None),
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
        self._fit_texts()
        self.home.text = tr("Leave")
        chips = g.vars["chips"]
        self.header.text = self._broken_at_dot(
            tr("Hand {n} · Your chips: {chips}", n=g.vars["hand_no"], chips=chips[VISITOR]))
        ended = g.phase in ("done", "over")
        result = (g.vars["result"] or None) if ended else None
        self.pot.text = tr("Pot\n{pot}", pot=result["pot"] if result else g.vars["pot"])
        for k, seat in enumerate(self.seats, 1):
            self._show_seat(seat, k, result)
        hand = poker_order(g.hand(VISITOR))
        self.mine.show(hand, marked=self.marked & set(hand))
        self.mine.active = g.phase == "draw" and g.to_move == VISITOR and not self.leaving
        self.mine.opacity = 1 if g.vars["live"][VISITOR] or ended else 0.5
        self.my_hand.text = self._hand_text(tr(hand_name(g.value(VISITOR)))) if hand else ""
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

    def _hand_text(self, name: str) -> str:
        """"Your hand: One pair" on one line where it fits, else broken after "Your hand:"
        with the hand's name whole on the next ("One / pair" was drawn beside the hand)."""
        tr = self.app.tr
        whole = tr("Your hand: {hand}", hand=name)
        label = self.my_hand
        room = label.width - 2 * label.inset - fit_slack(label.want_font)
        if text_width(whole, label.want_font, label.font_name, True) <= room:
            return whole
        before, _mark, after = tr("Your hand: {hand}", hand="\x00").partition("\x00")
        return f"{before.rstrip()}\n{name}{after}" if before.strip() else whole

    def _broken_at_dot(self, text: str) -> str:
        """The header on one line where it fits, else broken at its "·" (beside the hand,
        with five opponents or more)."""
        label = self.header
        px = rung(self._px * 1.05)
        if text_width(text, px, label.font_name, True) <= label.width - fit_slack(px):
            return text
        return "\n".join(part.strip() for part in text.split("·"))

    def _fit_texts(self) -> None:
        """Every text at the table's size or smaller, never under the reading floor: the
        boxes are laid out to hold them there (:meth:`_arrange`)."""
        for label, px in ((self.header, self._px * 1.05), (self.my_hand, self._px),
                          (self.message, self._px), (self.pot, self._pot_px)):
            label.min_font = self._floor
            label.font_size = max(px, self._floor)

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
            b = KButton(text=text, bold=True, min_font=self._floor,
                        font_size=max(self._floor,
                                      min(h * 0.36, fit_font(text, h * 0.36, each * 0.9, True))))
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
    def seat_plan(self, W: float, H: float) -> tuple[int, str, float]:
        """How the computer players sit on a W x H screen: (seats a row, the seat's shape,
        its height). Every seat text is at the reading floor, so the plan is made in lines
        of it: at 800x480 one row of four holds the name, the cards, the chips and the
        words; five to seven go in two rows of text (name, chips, words), the first between
        the Leave and the Rules buttons, their cards shown only when the showdown turns
        them up (a row of seven left each card a 14 px sliver, and two rows of cards leave
        no room for the visitor's). A portrait screen has three to a row, with cards."""
        n = max(1, len(self.seats))
        u = min(W, H) / 480
        line = seat_line(u, self.header.font_name)
        pad = 2 * u
        if H > W:
            return 3, "tall", 3 * line + 0.075 * H + 2 * pad
        if n <= 4:
            return 4, "tall", 3 * line + 50 * u + 2 * pad + 2 * u
        return n - n // 2, "text", 3 * line + 2 * pad

    @property
    def leave_in_row(self) -> bool:
        """Five to seven opponents at a landscape table: the Leave and Rules buttons stand
        at the ends of the seats' first row (the header goes beside the visitor's hand)."""
        return self.width >= self.height and len(self.seats) >= 5

    def _place_seats(self) -> None:
        n = len(self.seats)
        if not n:
            return
        W, H = self.seats_box.size
        x0, y0 = self.seats_box.pos
        u = min(self.size) / 480
        per_row, shape, h = self.seat_plan(*self.size)
        gap = (4 if self.height > self.width else 6) * u
        cap = self.width * 0.24 if self.width > self.height else W
        if self.leave_in_row:  # [Leave] n // 2 seats [Rules], then the rest
            ends = self.home.width + self.rules_button.width + 2 * gap
            rows = [n // 2, n - n // 2]
            widths = [min((W - ends - gap * (rows[0] - 1)) / rows[0], cap),
                      min((W - gap * (rows[1] - 1)) / rows[1], cap)]
            for b in (self.home, self.rules_button):
                b.y = y0 + H - h + (h - b.height) / 2
        else:
            count = -(-n // per_row)
            per_row = -(-n // count)  # rows as even as they can be (3 + 2, 3 + 3 + 1)
            rows = [min(per_row, n - r * per_row) for r in range(count)]
            widths = [min((W - gap * (per_row - 1)) / per_row, cap)] * count
        spots = []
        for r, (in_row, w) in enumerate(zip(rows, widths, strict=True)):
            left = x0 + (W - (in_row * w + (in_row - 1) * gap)) / 2
            spots += [(left + c * (w + gap), y0 + H - (r + 1) * h - r * gap, w)
                      for c in range(in_row)]
        for seat, (x, y, w) in zip(self.seats, spots, strict=True):
            seat.unit = u
            seat.shape, seat.words_lines = shape, 1
            seat.size = (w, h)
            seat.pos = (x, y)

    def _arrange(self, *_a) -> None:
        """Top to bottom: the Leave button and the header, the seats (:meth:`seat_plan`),
        the words (three lines at the floor), the buttons, the visitor's hand (what is
        left, at most 27% of a landscape screen) with the pot and the hand's name beside it
        (over it in portrait)."""
        W, H = self.size
        if min(W, H) < 10:
            return
        portrait = H > W
        u = min(W, H) / 480
        self._floor = READ_PX * u
        wide = self.leave_in_row
        top = self.place_home(W, H, 0.06 if portrait else 0.09)
        self._px = max(self._floor, min(H, W) * (0.04 if portrait else 0.042))
        line = seat_line(u, self.header.font_name)
        gap = 5 * u
        per_row, _shape, seat_h = self.seat_plan(W, H)
        rows = max(1, -(-len(self.seats) // per_row))
        seats_h = rows * seat_h + (rows - 1) * 6 * u
        above = gap if wide else top + gap
        self.seats_box.size = (W * 0.98, seats_h)
        self.seats_box.pos = (W * 0.01, H - above - seats_h)
        act_h = max(H * (0.065 if portrait else 0.11), touch_px(W, H) + 2 * BUTTON_INSET)
        message_h = 3 * line
        name_h = line if portrait else 0  # the hand's name over the hand, portrait
        room = self.seats_box.y - gap - message_h - gap - act_h - gap - name_h - H * 0.01
        hand_h = max(48 * u, min(room, H * (0.16 if portrait else 0.27)))
        # five cards need no more than this; what is left beside them holds the words
        cards_w = (hand_h / 1.16 / 1.4) * 5.4
        self.mine.size = (W * 0.9 if portrait else min(W * 0.56, cards_w), hand_h)
        self.mine.pos = ((W - self.mine.width) / 2, H * 0.01)
        side = (W - self.mine.width) / 2 - W * 0.02
        if portrait:  # the hand's name over the hand, the pot beside the words
            self.my_hand.size = (W * 0.9, name_h)
            self.my_hand.pos = (W * 0.05, self.mine.top)
            under_actions = self.my_hand.top
        else:  # the pot left of the hand, its name right of it
            self.my_hand.size = (side, hand_h / 2 if wide else hand_h)
            self.my_hand.pos = (self.mine.right + W * 0.01, self.mine.y)
            under_actions = self.mine.top
        if wide:  # the header over the hand's name, beside the hand
            self.header.size = (side, hand_h - self.my_hand.height)
            self.header.pos = (self.my_hand.x, self.my_hand.top)
        else:  # between Leave and Rules
            self.place_header(self.header, W, H, top, self._px * 1.05)
        self.actions.height = act_h
        self.actions.y = under_actions + gap
        mid_bottom = self.actions.top + gap
        mid_h = self.seats_box.y - gap - mid_bottom
        if portrait:
            pot_w = W * 0.18
            self.pot.size = (pot_w, mid_h)
            self.pot.pos = (W * 0.02, mid_bottom)
            self.message.size = (W - pot_w - W * 0.06, mid_h)
            self.message.pos = (self.pot.right + W * 0.02, mid_bottom)
        else:
            self.pot.size = (side, hand_h)
            self.pot.pos = (W * 0.01, self.mine.y)
            self.message.size = (W * 0.94, mid_h)
            self.message.pos = (W * 0.03, mid_bottom)
        self._pot_px = self._px * 1.3
        self._place_seats()
        self.refresh()
