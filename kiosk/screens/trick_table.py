"""The Follow the Rules table: the visitor's hand against the computer, trick by trick.

Why a screen of its own and not the Gin table with options: here the middle of the table
is a trick of two cards and a stock with the trump card under it, and the only choice is
which card to play, so the buttons and the words differ; the pieces are shared (the fanned
hand of :mod:`kiosk.table.hand_fan`, the background computer of
:class:`~kiosk.table.gin_turns.ComputerTurns`). Moves go through the same
:class:`~kiosk.table.controller.TableController`, so the play log, the idle timer and the
lobby serve this table as they serve the others.

A finished trick stays in the middle until the next card is led, so the visitor sees what
the computer played and who took it; the words say it too.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from games.engine import cards as C
from games.engine.model import Move
from games.families.seats import VISITOR
from kiosk.screens.seated_table import SeatedTableScreen, fit_in_box, header_label
from kiosk.screens.text_fit import READ_PX, FitLabel
from kiosk.screens.text_fit import LadderLabel as Label
from kiosk.screens.widgets import GOLD, Felt, KButton, fit_font
from kiosk.table.card_art import CardWidget
from kiosk.table.gin_turns import Text, hand_order, match_text
from kiosk.table.hand_fan import ASPECT, HandFan
from kiosk.table.trick_texts import (
    computer_play_text,
    follow_text,
    hand_lines,
    led_text,
    points_text,
    reached_text,
    trick_tip,
    trumps_text,
    visitor_trick_text,
)

#: seconds the computer waits before each card, so a person can follow
COMPUTER_PAUSE = 0.9
#: the words of a card the rules refused (the reason, translated): the only message then
REFUSAL = "{refusal}"
#: the ``who`` fields of the hand's lines are msgids to translate as well
_WORD_FIELDS = ("who",)


class TrickTableScreen(SeatedTableScreen):
    def __init__(self, **kw) -> None:
        super().__init__("trick", COMPUTER_PAUSE, **kw)
        self.raised = -1
        self.said: Text | None = None
        self._play_box = self._end_box = ((0.0, 0.0), (100.0, 100.0))
        self._message_box = self._play_box
        self._actions_y = (0.0, 0.0)
        self._score_px = self._message_px = self._small_px = 20.0
        root = FloatLayout()
        self.add_widget(root)
        root.add_widget(Felt())
        self.score = header_label()
        self.home = KButton(size_hint=(None, None), bold=True)
        self.home.bind(on_release=lambda *_a: self.ask_leave())
        self.theirs = HandFan(size_hint=(None, None))
        self.mine = HandFan(on_pick=self.pick, size_hint=(None, None))
        self.trump_card = CardWidget(0)
        self.stock = CardWidget(0, face_up=False)
        self.stock_count = Label(size_hint=(None, None), halign="center", valign="middle")
        self.trumps = Label(size_hint=(None, None), halign="center", valign="middle",
                            bold=True, color=GOLD)
        self.trick = [CardWidget(0), CardWidget(0)]
        #: over the trick while the visitor must answer the computer's lead: the suit led,
        #: and a gold frame round the led card
        self.led = Label(size_hint=(None, None), halign="center", valign="middle",
                         bold=True, color=GOLD)
        self.led_frame = Widget(size_hint=(None, None))
        with self.led_frame.canvas:
            Color(*GOLD)
            self._led_line = Line(width=2.5)
        self.taken = FitLabel(size_hint=(None, None), halign="center", valign="middle")
        # broken by Unicode's rules (a plain label put "。" at the start of a Chinese line)
        self.message = FitLabel(halign="center", valign="middle", size_hint=(None, None),
                                color=(1, 1, 1, 1), min_font=12, mode="grow")
        self.actions = BoxLayout(spacing=10, size_hint=(None, None))
        for w in (self.score, self.home, self.theirs, self.trump_card, self.stock,
                  self.stock_count, self.trumps, *self.trick, self.led, self.led_frame,
                  self.taken, self.message, self.actions, self.mine):
            root.add_widget(w)
        self.root_layout = root
        self.bind(size=self._arrange)

    # ------------------------------------------------------------------ sitting down
    def reset_deal(self) -> None:
        self.raised, self.said = -1, None

    # ------------------------------------------------------------------ the computer
    def _tick(self, _dt: float = 0) -> None:
        move = self.computer_move()
        if move is None:
            return
        g = self.game
        led = g.phase == "lead"
        if self.ctl.play(move, "computer") is not None:
            return  # refused: the next tick asks again
        taker = None if led else g.vars["last"][3]
        self.said = computer_play_text(move.extra[0], led, taker)
        self.refresh()

    # ------------------------------------------------------------------ the visitor
    def _my_turn(self) -> bool:
        g = self.game
        return g is not None and g.to_move == VISITOR and g.phase in ("lead", "follow")

    def pick(self, code: int) -> None:
        """A tap on a card of the hand: raise it, or play it when it is raised. A card the
        rules do not allow now is never raised: the reason is the only answer."""
        if self.ctl is not None:
            self.ctl.touched()
        if not self._my_turn():
            return
        move = Move("play", extra=(code,))
        refused = self.ctl.why_illegal(move)
        if refused is not None:
            self.raised = -1
            self.say((REFUSAL, {"reason": self.app.tr_reason(refused)}))
            return
        if code == self.raised:
            self.play(move)
            return
        self.raised = code
        if self.said is not None and self.said[0] == REFUSAL:
            self.said = None  # a playable card answers the last refusal
        self.refresh()

    def play(self, move: Move) -> None:
        g = self.game
        following = g.phase == "follow"
        refused = self.ctl.play(move, "touch")
        if refused is not None:
            self.raised = -1
            self.said = (REFUSAL, {"reason": self.app.tr_reason(refused)})
        else:
            self.raised = -1
            self.said = visitor_trick_text(g.vars["last"][3]) if following else None
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def _tr(self, text: Text) -> str:
        msgid, fields = text
        if msgid in ("{reason}", REFUSAL):
            return fields["reason"]
        tr = self.app.tr
        return tr(msgid, **{k: tr(v) if k in _WORD_FIELDS else v for k, v in fields.items()})

    render = _tr

    def refresh(self, *_a) -> None:
        g = self.game
        if g is None:
            return
        tr = self.app.tr
        self._show_score(g)
        ended = g.phase in ("done", "match")
        self.theirs.show(list(g.hand(1)), face_up=ended)
        self.mine.show(hand_order(g.hand(VISITOR)), raised=self.raised,
                       dimmed=self._unplayable(g))
        self.mine.active = self._my_turn()
        left = g.stock_left()
        self.stock.opacity = 1 if g.cards[g.stock] else 0
        turned = g.cards[g.turned]
        self.trump_card.opacity = 1 if turned else 0
        if turned:
            self.trump_card.code = turned[0]
        self.stock_count.text = str(left) if left else ""
        self.trumps.text = self._tr(trumps_text(g.trump))
        self._show_trick(g)
        self._show_led(g)
        self._message_box = self._end_box if ended else self._play_box
        self.actions.y = self._actions_y[1 if ended else 0]
        self.taken.text = tr("Taken: you {you} cards, the computer {them}",
                             you=len(g.cards[g.captured[0]]),
                             them=len(g.cards[g.captured[1]]))
        self.message.text = self._message(g)
        self._fit_texts()
        self._buttons()
        self._panel()

    def _show_trick(self, g) -> None:
        """The trick being played, or the last one (dimmed) until the next card is led:
        the leader's card on the left."""
        cards = list(g.cards[g.trick])
        dim = False
        if g.phase in ("done", "match"):
            cards = []
        elif not cards and g.vars["last"]:
            _leader, lead, follow, _winner = g.vars["last"]
            cards, dim = [lead, follow], True
        for k, w in enumerate(self.trick):
            if k < len(cards):
                w.code, w.opacity = cards[k], 0.6 if dim else 1
            else:
                w.opacity = 0

    def _following(self, g) -> bool:
        """The visitor must answer the card the computer led."""
        return self._my_turn() and g.phase == "follow" and bool(g.cards[g.trick])

    def _unplayable(self, g) -> set[int]:
        """The visitor's cards the rules do not allow now (dimmed in the hand)."""
        if not self._following(g):
            return set()
        playable = {m.extra[0] for m in g.legal_moves() if m.kind == "play"}
        return set(g.hand(VISITOR)) - playable

    def _show_led(self, g) -> None:
        """The suit led marked over the trick, the led card framed, while the visitor must
        follow it."""
        on = self._following(g)
        self.led.opacity = self.led_frame.opacity = 1 if on else 0
        if not on:
            self.led.text = ""
            return
        self.led.text = self._tr(led_text(g.cards[g.trick][0]))
        card = self.trick[0]
        self.led.size = (card.width * 1.6, self._small_px * 1.6)
        self.led.pos = (card.center_x - self.led.width / 2, card.top + 2)
        self.led.font_size = fit_font(self.led.text, self._small_px, self.led.width, bold=True)
        self.led.text_size = self.led.size
        self._led_line.rounded_rectangle = (card.x - 3, card.y - 3, card.width + 6,
                                            card.height + 6, 8)

    def _fit_texts(self) -> None:
        """The score line and the message shrink until they fit (Russian runs long)."""
        # a margin: fit_font's measure ran 6 px short of the drawn "Раздача 1 · Вы 10 ·
        # Компьютер 9" in portrait
        self.score.font_size = self._score_px
        floor = READ_PX * min(self.size) / 480
        self.trumps.font_size = max(floor, fit_font(self.trumps.text, self._small_px,
                                                    self.trumps.width, bold=True))
        self.trumps.text_size = self.trumps.size
        # the cards taken, on two lines at the floor where one is too narrow (it shrank to
        # 13 px on a narrower table)
        self.taken.min_font = floor
        self.taken.font_size = max(floor, self._small_px)
        fit_in_box(self.message, self._message_px, *self._message_box)

    def _message(self, g) -> str:
        tr = self.app.tr
        lines = []
        if self.said is not None:
            lines.append(self._tr(self.said))
        result = g.vars["result"] or None
        if g.phase in ("done", "match") and result is not None:
            lines += [self._tr(t) for t in hand_lines(result)]
            reached = reached_text(result, g.opts["target"])
            if reached is not None:
                lines.append(self._tr(reached))
            lines.append(self._tr(points_text(result)))
            if g.phase == "match":
                lines.append(self._tr(match_text(g)))
        elif g.to_move != VISITOR:
            lines.append(tr("The computer is thinking…"))
        elif self.said is not None and self.said[0] == REFUSAL:
            pass  # the refusal of a card is the only message: it says what to play
        elif self.raised >= 0:
            lines.append(tr("Tap the card again to play it."))
        elif g.phase == "follow":
            lead = g.cards[g.trick][0]
            playable = [m.extra[0] for m in g.legal_moves() if m.kind == "play"]
            lines.append(self._tr(follow_text(lead, g.trump, list(g.hand(VISITOR)), playable)))
        else:
            lines.append(tr("Your turn: lead a card."))
        if (self._my_turn() and self.raised < 0 and self.app.learning(self.ctl.game_id)
                and not (self.said is not None and self.said[0] == REFUSAL)):
            lead = g.cards[g.trick][0] if g.cards[g.trick] else -1
            lines.append(self._tr(trick_tip(g.phase, lead, g.trump)))
        return "\n".join(lines)

    def _hand_buttons(self) -> list[tuple[str, Any, bool]]:
        """The choices of the moment while a hand is played."""
        if not (self._my_turn() and self.raised >= 0):
            return []
        card = self.raised
        return [(self.app.tr("Play the {card}", card=C.pretty(card)),
                 lambda: self.play(Move("play", extra=(card,))), True)]

    def _arrange(self, *_a) -> None:
        W, H = self.size
        portrait = H > W
        top = self.place_home(W, H, 0.06 if portrait else 0.09)
        self._score_px = min(top * 0.45, H * 0.04)
        self.place_header(self.score, W, H, top, self._score_px)
        mid_top, mid_bottom = self._stack_hands(
            W, H, top, portrait, ((0.2, 0.23), (0.065, 0.11), (0.12, 0.13)), (0.15, 0.7))
        self._small_px = max(18.0, min(H, W) * 0.04)
        if portrait:
            pile_h = (mid_top - mid_bottom) * 0.34
            pile_w = pile_h / ASPECT
            py = mid_top - pile_h - self._small_px * 1.7
            sx = W * 0.06
            msg_top = py - 76
        else:
            pile_h = (mid_top - mid_bottom) * 0.72
            pile_w = pile_h / ASPECT
            py = mid_top - pile_h - self._small_px * 1.7
            sx = W * 0.03
            msg_top = mid_bottom + (py - mid_bottom) + pile_h
        # the trump card lies crosswise under the stock in a real game; here it peeks out
        # to the left of the stock, face up, so its suit reads at a glance
        self.trump_card.size = self.stock.size = (pile_w, pile_h)
        self.trump_card.pos = (sx, py)
        self.stock.pos = (sx + pile_w * 0.45, py)
        count_px = READ_PX * min(W, H) / 480  # the reading floor (a fixed 18 px in portrait)
        self.stock_count.size = (pile_w, count_px * 1.6)
        self.stock_count.pos = (self.stock.x, py - count_px * 1.6)
        self.stock_count.font_size = count_px
        self.trumps.size = (pile_w * 1.6, self._small_px * 1.6)
        self.trumps.pos = (sx, py + pile_h + 2)
        gap = pile_w * 0.15
        tx = W * 0.45 if portrait else W * 0.22
        for k, w in enumerate(self.trick):
            w.size = (pile_w, pile_h)
            w.pos = (tx + k * (pile_w + gap), py)
        if portrait:
            self.taken.size = (W * 0.94, max(34, 1.6 * READ_PX * min(W, H) / 480))
            self.taken.pos = (W * 0.03, py - 72)
            self._play_box = ((W * 0.03, mid_bottom), (W * 0.94, msg_top - mid_bottom))
        else:
            mx = self.trick[1].right + W * 0.03
            taken_h = 2.6 * READ_PX * min(W, H) / 480  # room for two lines at the floor
            self.taken.size = (W - mx - W * 0.02, taken_h)
            self.taken.pos = (mx, mid_top - taken_h)
            self._play_box = ((mx, mid_bottom),
                              (W - mx - W * 0.02, mid_top - taken_h - 4 - mid_bottom))
        # the message is as tall as its lines (fit_in_box): the box is kept here
        # a finished hand has no cards in the hands or the trick: its button goes down to
        # the bottom and its lines take the room
        self._actions_y = (self.actions.y, H * 0.01)
        low = H * 0.01 + self.actions.height + 6
        if portrait:
            self._end_box = ((W * 0.03, low), (W * 0.94, self.taken.y - 6 - low))
        else:
            ex = self.stock.right + W * 0.03
            self._end_box = ((ex, low), (W - ex - W * 0.02, mid_top - 38 - low))
        self._message_px = min(H, W) * (0.04 if portrait else 0.045)
        self.refresh()
