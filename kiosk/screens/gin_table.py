"""The Gin Rummy table: the visitor's hand against the computer, a whole match by touch.

Why a screen of its own: a solitaire table shows piles and drags cards between them; here
the visitor holds a hand, chooses among a few actions (draw, take, discard, knock, gin)
and watches another player. The moves still go through the same
:class:`~kiosk.table.controller.TableController`, so the play log, the idle timer and the
lobby serve this table exactly as they serve the others (the log session records hands and
matches after every move).

The computer decides in :class:`~kiosk.table.gin_turns.ComputerTurns` (a worker thread,
never the UI thread) and its move is played after a short pause; what it did stays in words
on the table until the visitor's next move.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout

from games.engine import cards as C
from games.engine.model import Move
from games.families.melds import deadwood
from games.families.seats import VISITOR
from kiosk.screens.seated_table import SeatedTableScreen, fit_in_box, header_label
from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, Felt, KButton
from kiosk.table.card_art import CardWidget
from kiosk.table.gin_help import (
    confirm_text,
    deadwood_now,
    deadwood_text,
    greyed_text,
    knock_card,
)
from kiosk.table.gin_help import tip as tip_text
from kiosk.table.gin_rows import arranged, hand_end_rows, in_order, knocker_row
from kiosk.table.gin_turns import (
    Text,
    _,
    computer_text,
    drawn_text,
    lay_off_text,
    match_text,
    meld_text,
    pass_text,
    score_text,
    take_text,
)
from kiosk.table.hand_fan import ASPECT, HandFan

#: seconds the computer waits before each of its moves, so a person can follow
COMPUTER_PAUSE = 0.9


class GinTableScreen(SeatedTableScreen):
    def __init__(self, **kw) -> None:
        super().__init__("gin", COMPUTER_PAUSE, **kw)
        self.raised = -1
        #: the card the visitor just drew, marked in the hand until the discard
        self.fresh = -1
        self.confirm: Move | None = None
        self.said: Text | None = None
        self._drawn: Move | None = None
        self._upcard = -1
        self._score_px = self._message_px = self._line_px = 20.0
        #: the computer's cards lie open (a knock, the hand's end): its row is larger
        self._open_row = False
        self._message_box = ((0.0, 0.0), (100.0, 100.0))
        root = FloatLayout()
        self.add_widget(root)
        root.add_widget(Felt())
        # the header line: shrinks to the reading floor, then breaks, with a margin at both
        # ends (Russian "Раздача 1 • Вы 0 • Компьютер 0" ran to the screen's edge)
        self.score = header_label()
        self.home = KButton(size_hint=(None, None), bold=True)
        self.home.bind(on_release=lambda *_a: self.ask_leave())
        self.theirs = HandFan(on_pick=self.pick_meld, size_hint=(None, None))
        self.mine = HandFan(on_pick=self.pick, on_reorder=self.reorder, size_hint=(None, None))
        #: the order the visitor dragged the hand to, and the hand it was for (until then,
        #: and from the next hand on, the table arranges it: melds first)
        self.chosen: list[int] | None = None
        self._chosen_for = -1
        #: the live deadwood line: the count, and why Knock and Gin are greyed
        self.deadwood = FitLabel(halign="center", valign="middle", size_hint=(None, None),
                                 color=GOLD, bold=True, mode="grow")
        #: the first hand's tip of the moment, under the words
        self.tip = FitLabel(halign="center", valign="middle", size_hint=(None, None),
                            color=(1, 1, 1, 1), mode="grow")
        self.stock = CardWidget(0, face_up=False)
        self.discard = CardWidget(0)
        self.stock_count = Label(size_hint=(None, None), halign="center")
        # broken by Unicode's rules (a plain label put "。" at the start of a Chinese line)
        self.message = FitLabel(halign="center", valign="middle", size_hint=(None, None),
                                color=(1, 1, 1, 1), min_font=12, mode="grow")
        self.actions = BoxLayout(spacing=10, size_hint=(None, None))
        for w in (self.score, self.home, self.theirs, self.stock, self.discard,
                  self.stock_count, self.message, self.tip, self.deadwood, self.actions,
                  self.mine):
            root.add_widget(w)
        self.root_layout = root
        self.bind(size=self._arrange)

    # ------------------------------------------------------------------ sitting down
    def reset_deal(self) -> None:
        self.raised, self.confirm, self.said, self._drawn = -1, None, None, None
        self.fresh = -1

    # ------------------------------------------------------------------ the computer
    def _tick(self, _dt: float = 0) -> None:
        move = self.computer_move()
        if move is None:
            return
        g = self.game
        upcard = g.top(g.waste) if g.cards[g.waste] else -1
        if self.ctl.play(move, "computer") is not None:
            return  # refused: the next tick asks again
        if move.kind in ("stock", "take"):
            self._drawn, self._upcard = move, upcard
        elif move.kind == "pass":
            self.said = pass_text(upcard)
        elif move.kind in ("layoff", "done"):
            self.said = lay_off_text(move, g.vars["melds"],
                                     tuple(c for c, _i in g.vars["laid"]))
        else:
            self.said = computer_text(self._drawn, self._upcard, move)
            self._drawn = None
        self.refresh()

    # ------------------------------------------------------------------ the visitor
    def _visitor_moves(self) -> list[Move]:
        g = self.game
        if g is None or g.to_move != VISITOR or g.phase not in ("offer", "draw", "discard",
                                                                 "layoff"):
            return []
        return g.legal_moves()

    def pick(self, code: int) -> None:
        """A tap on a card of the hand: raise it, or discard it when it is raised."""
        if self.ctl is not None:
            self.ctl.touched()
        g = self.game
        if g is None or g.phase not in ("discard", "layoff") or g.to_move != VISITOR:
            return
        self.confirm = None
        if g.phase == "discard":
            refused = self.ctl.why_illegal(Move("discard", extra=(code,)))
            if refused is not None:  # never raised with a Discard button: the reason only
                self.raised = -1
                self.say(("{reason}", {"reason": self.app.tr_reason(refused)}))
                return
        if code == self.raised:
            if g.phase == "discard":
                self.play(Move("discard", extra=(code,)))
                return
            fits = self._lay_offs(code)
            if len(fits) == 1:  # one meld it fits: the second tap lays it off
                self.play(fits[0])
                return
        self.raised = code
        self.refresh()

    def _lay_offs(self, code: int) -> list[Move]:
        return [m for m in self._visitor_moves() if m.kind == "layoff" and m.extra[0] == code]

    def pick_meld(self, code: int) -> None:
        """A tap on a card of the knocker's row during the lay-off: lay the raised card off
        on the meld that card belongs to (the refusal says why when it does not fit)."""
        if self.ctl is not None:
            self.ctl.touched()
        g = self.game
        if g is None or g.phase != "layoff" or g.to_move != VISITOR:
            return
        where = next((i for i, m in enumerate(g.lying_melds()) if code in m), -1)
        if self.raised < 0:
            self.said = (_("First tap a card of your hand, then the meld it extends."), {})
            self.refresh()
        elif where >= 0:
            self.play(Move("layoff", extra=(self.raised, where)))

    def play(self, move: Move) -> None:
        before = set(self.game.hand(VISITOR))
        refused = self.ctl.play(move, "touch")
        if refused is not None:
            self.said = ("{reason}", {"reason": self.app.tr_reason(refused)})
        else:
            self.raised, self.confirm = -1, None
            if move.kind in ("discard", "knock", "gin", "layoff", "done", "pass", "take"):
                self.said = None
            self.fresh = -1
            drawn = set(self.game.hand(VISITOR)) - before
            if move.kind in ("stock", "take") and len(drawn) == 1:
                self.fresh = drawn.pop()
                self.said = drawn_text(move.kind, self.fresh)
        self.refresh()

    def ask_confirm(self, move: Move | None) -> None:
        self.confirm = move
        if move is not None:
            self.raised = move.extra[0]  # the card that goes, raised in the hand
        self.refresh()

    def going_out(self, kind: str) -> None:
        """The Knock or Gin button: when the hand allows it, the card to throw away is
        raised (the visitor's, else the one that leaves the least deadwood) and the table
        asks once more; when it does not, the table says why."""
        if self.ctl is not None:
            self.ctl.touched()
        g = self.game
        legal = self._visitor_moves()
        if not any(m.kind == kind for m in legal):
            points = deadwood_now(g.hand(VISITOR), g.vars["taken"])
            self.say(greyed_text(kind, points, g.phase))
            return
        card = knock_card(g.hand(VISITOR), legal, kind, self.raised)
        self.ask_confirm(Move(kind, extra=(card,)))

    def reorder(self, codes: list[int]) -> None:
        """The visitor dragged a card along the hand: the hand keeps that order (cards
        drawn since go at the right end) until the hand is over."""
        if self.ctl is not None:
            self.ctl.touched()
        g = self.game
        if g is None or g.phase not in ("offer", "draw", "discard"):
            self.refresh()
            return
        self.chosen, self._chosen_for = list(codes), g.vars["hand_no"]
        self.refresh()

    def _show_mine(self, g) -> None:
        """The visitor's hand while a hand is played: arranged in melds (each with its
        band) then deadwood, or in the order the visitor dragged it to, bands kept."""
        hand = g.hand(VISITOR)
        best = arranged(hand)
        if self.chosen is not None and self._chosen_for == g.vars["hand_no"]:
            self.mine.show(in_order(hand, self.chosen), raised=self.raised, fresh=self.fresh,
                           bands=best.bands)
        else:
            best.show_on(self.mine, raised=self.raised, fresh=self.fresh)

    def _going_out_state(self, g) -> tuple[int, bool, bool]:
        """(the deadwood that counts now, Knock possible, Gin possible) for the visitor."""
        kinds = {m.kind for m in self._visitor_moves()}
        return (deadwood_now(g.hand(VISITOR), g.vars["taken"]), "knock" in kinds,
                "gin" in kinds)

    def first_hand(self) -> bool:
        """The first hand of Gin in this visit: the table gives its tips."""
        return self.app.learning(self.ctl.game_id) if self.ctl is not None else False

    # ------------------------------------------------------------------ drawing
    def refresh(self, *_a) -> None:
        g = self.game
        if g is None:
            return
        ended = g.phase in ("done", "match")
        open_row = ended or g.phase == "layoff"
        if open_row != self._open_row:  # laid out again for the open row, then drawn
            self._open_row = open_row
            self._arrange()
            return
        self._show_score(g)
        result = g.vars["result"] or None
        if ended and result is not None:
            self._show_arranged(result)
        elif g.phase == "layoff":
            self._show_lay_off()
        else:
            self.theirs.show(list(g.hand(1)), face_up=False)
            self._show_mine(g)
        self.mine.active = (not ended and g.to_move == VISITOR
                            and g.phase in ("discard", "layoff"))
        self.theirs.active = g.phase == "layoff" and g.to_move == VISITOR
        self.stock.opacity = 1 if g.cards[g.stock] else 0
        self.stock_count.text = str(len(g.cards[g.stock]))
        if g.cards[g.waste]:
            self.discard.code, self.discard.opacity = g.top(g.waste), 1
        else:
            self.discard.opacity = 0
        self._show_help(g)
        self.message.text = self._message(result if ended else None)
        self._fit_texts()
        self._buttons()
        self._panel()

    def _fit_texts(self) -> None:
        """The score line and the message shrink until they fit (Russian runs long); the
        deadwood line and the tip stand under the message, at the reading floor or above."""
        self.score.font_size = self._score_px
        (x, y), (w, h) = self._message_box
        u = min(self.size) / 480 if min(self.size) > 0 else 1
        bottom = y
        for label in (self.deadwood, self.tip):
            label.opacity = 1 if label.text else 0
            if not label.text:
                continue
            fit_in_box(label, self._line_px, (x, bottom), (w, h * 0.4), floor=READ_PX * u)
            label.y = bottom
            bottom = label.top + 4 * u
        fit_in_box(self.message, self._message_px, (x, bottom), (w, y + h - bottom))

    def _show_arranged(self, result) -> None:
        """Both hands in melds then deadwood (raised); a defender's lay-offs sit on the
        knocker's row after the meld they extend."""
        mine, theirs = hand_end_rows(result)
        mine.show_on(self.mine)
        theirs.show_on(self.theirs)

    def _show_lay_off(self) -> None:
        """During the lay-off the knocker's hand lies open in its melds, each with what was
        laid off on it, then its deadwood (raised); the defender's hand shows what is left.
        The visitor's own melds are not shown to the computer: its hand stays backs."""
        g = self.game
        knocker = g.vars["knocker"]
        laid = {c for c, _i in g.vars["laid"]}
        open_row = knocker_row(g.lying_melds(), g.hand(knocker))
        rest = [c for c in g.hand(1 - knocker) if c not in laid]
        if knocker == VISITOR:
            open_row.show_on(self.mine)
            self.theirs.show(rest, face_up=False)
        else:
            open_row.show_on(self.theirs)
            # the visitor's own melds stay marked while laying off
            arranged(rest).show_on(self.mine, raised=self.raised)

    def _message(self, result) -> str:
        tr = self.app.tr
        g = self.game
        lines = []
        if self.said is not None:
            lines.append(tr(self.said[0], **self.said[1]) if self.said[0] != "{reason}"
                         else self.said[1]["reason"])
        if result is not None:
            msgid, fields = score_text(result)
            lines.append(tr(msgid, **fields))
            lines.append(tr("Raised cards are deadwood."))
            if g.phase == "match":
                msgid, fields = match_text(g)
                lines.append(tr(msgid, **fields))
        elif g.to_move != VISITOR:
            if g.phase == "layoff":
                lines.append(tr("You knock: the computer may lay off cards on your melds."))
            lines.append(tr("The computer is thinking…"))
        elif g.phase == "layoff":
            lines.append(tr("Lay off cards on the computer's melds: tap a card, then the meld "
                            "it extends. Then tap Done."))
        elif self.tip.text and self.confirm is None:
            pass  # the first hand's tip (under the words) says what to do, and more
        elif g.phase == "offer":
            lines.append(tr("The first upcard: take it, or pass."))
        elif self.confirm is not None:
            kind, card = self.confirm.kind, self.confirm.extra[0]
            left = deadwood(c for c in g.hand(VISITOR) if c != card)
            msgid, fields = confirm_text(kind, card, left)
            lines.append(tr(msgid, **fields))
        elif self.said is not None and self.raised >= 0:
            pass  # the button under the words says what a tap does; the computer's words stay
        elif g.phase == "draw":
            lines.append(tr("Your turn: draw a card."))
        else:
            lines.append(tr("Tap a card to raise it, tap it again to discard it."))
        return "\n".join(lines)

    def _hand_buttons(self) -> list[tuple[str, Any, bool]]:
        """The choices of the moment while a hand is played."""
        tr = self.app.tr
        g = self.game
        specs: list[tuple[str, Any, bool]] = []
        if self.confirm is not None:
            word = _("Yes, go gin") if self.confirm.kind == "gin" else _("Yes, knock")
            m = self.confirm
            specs.append((tr(word), lambda: self.play(m), True))
            specs.append((tr("Not yet"), lambda: self.ask_confirm(None), False))
        else:
            legal = self._visitor_moves()
            kinds = {m.kind for m in legal}
            if "stock" in kinds:
                specs.append((tr("Draw from stock"), lambda: self.play(Move("stock")), True))
            if "take" in kinds:
                msgid, fields = take_text(g.top(g.waste))
                specs.append((tr(msgid, **fields), lambda: self.play(Move("take")), True))
            if "pass" in kinds:
                specs.append((tr("Pass"), lambda: self.play(Move("pass")), False))
            if g.phase == "layoff":
                melds = g.lying_melds()
                for m in self._lay_offs(self.raised) if self.raised >= 0 else []:
                    msgid, fields = meld_text(melds[m.extra[1]])
                    specs.append((tr(msgid, **fields), lambda m=m: self.play(m), True))
                specs.append((tr("Done"), lambda: self.play(Move("done")), False))
            if self.raised >= 0 and g.phase == "discard":
                card = self.raised
                specs.append((tr("Discard the {card}", card=C.pretty(card)),
                              lambda: self.play(Move("discard", extra=(card,))), True))
            if g.phase != "layoff":  # in sight from the start, greyed until possible
                for kind, word in (("knock", _("Knock")), ("gin", _("Gin"))):
                    lit = kind in kinds
                    specs.append((tr(word), lambda k=kind: self.going_out(k), lit, not lit))
        return specs

    def _show_help(self, g) -> None:
        """The deadwood line while a hand is played, and the first hand's tip."""
        tr = self.app.tr
        playing = g.phase in ("offer", "draw", "discard") and not self.leaving
        self.deadwood.text = ""
        self.tip.text = ""
        if self.leaving or g.phase not in ("offer", "draw", "discard", "layoff"):
            return
        points, knock, gin = self._going_out_state(g)
        if playing:
            msgid, fields = deadwood_text(points, g.phase, knock, gin)
            self.deadwood.text = tr(msgid, **fields)
        if self.first_hand() and self.confirm is None:
            moves = self._visitor_moves()
            upcard = g.top(g.waste) if g.cards[g.waste] else -1
            found = tip_text(g.phase, g.to_move == VISITOR, g.hand(VISITOR), upcard,
                             any(m.kind == "take" for m in moves), knock, gin,
                             [m.extra[0] for m in moves if m.kind == "layoff"])
            if found is not None:
                self.tip.text = tr(found[0], **found[1])

    def _arrange(self, *_a) -> None:
        W, H = self.size
        portrait = H > W
        top = self.place_home(W, H, 0.06 if portrait else 0.09)
        self._score_px = min(top * 0.45, H * 0.04)
        self.place_header(self.score, W, H, top, self._score_px)
        # the computer's row: small backs while a hand is played (the words, the deadwood
        # line and the tip need the room), larger once its cards lie open in melds
        theirs = 0.2 if self._open_row else 0.13
        mid_top, mid_bottom = self._stack_hands(
            W, H, top, portrait, ((0.2, 0.27), (0.065, 0.115), (0.13, theirs)), (0.05, 0.9))
        if portrait:
            pile_h = (mid_top - mid_bottom) * 0.5
            pile_w = pile_h / ASPECT
            py = mid_top - pile_h
            self.stock.size = self.discard.size = (pile_w, pile_h)
            self.stock.pos = (W / 2 - pile_w - 20, py)
            self.discard.pos = (W / 2 + 20, py)
            self._message_box = ((W * 0.03, mid_bottom), (W * 0.94, py - mid_bottom - 24))
        else:
            count_h = 30  # the stock's count under it, clear of the buttons below
            pile_h = (mid_top - mid_bottom - count_h) * 0.95
            pile_w = pile_h / ASPECT
            py = mid_top - pile_h
            self.stock.size = self.discard.size = (pile_w, pile_h)
            self.stock.pos = (W * 0.04, py)
            self.discard.pos = (W * 0.04 + pile_w * 1.2, py)
            mx = self.discard.right + W * 0.03
            self._message_box = ((mx, mid_bottom), (W - mx - W * 0.02, mid_top - mid_bottom))
        count_px = READ_PX * min(W, H) / 480  # the reading floor (a fixed 18 px in portrait)
        self.stock_count.size = (pile_w, count_px * 1.6)
        self.stock_count.pos = (self.stock.x, self.stock.y - count_px * 1.6)
        self.stock_count.font_size = count_px
        self._message_px = min(H, W) * (0.042 if portrait else 0.05)
        self._line_px = max(READ_PX * min(W, H) / 480, self._message_px * 0.9)
        self.refresh()
