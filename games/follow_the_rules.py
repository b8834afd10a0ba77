"""Follow the Rules (001 #8): the source's deal, completed as Shasta Sam (GAMES.md §B6).

Only the deal survives in the source (6 cards each, one at a time; the stock's top card
turned face up and put under the stock). Everything after it is the labelled
reconstruction: that card's suit is trumps and it is the last card drawn, the non-dealer
leads, the second player must follow suit or trump (any card when it can do neither), the
trick's winner draws first and leads, the last six tricks are played out from the hands,
and High, Low, Jack and Game score a point each, in a match to 10 (option: 7).

The trump card lies in a pile of its own (``R``) so the stock stays a plain face-down pile;
drawing takes from ``S`` and, when that is empty, the trump card from ``R``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from . import players
from .engine import cards as C
from .engine.model import GameInfo, IllegalMove, Move, Option, PileSpec
from .engine.reason import Card, Reason, Suit
from .engine.registry import register
from .engine.rng import Rng
from .families.seats import Player, SeatedGame, View, move_shape_problem

HAND_SIZE = 6
TARGET_CHOICES = (10, 7)
#: card points for Game (GAMES.md §B6 item 7); the pack holds 80
GAME_POINTS = {10: 10, C.ACE: 4, C.KING: 3, C.QUEEN: 2, C.JACK: 1}
#: the order the points of a hand count in when both players could reach the target
POINT_ORDER = ("high", "low", "jack", "game")
KINDS = ("play", "next")


def power(card: int) -> int:
    """The card's strength within its suit: the ace is high (2 lowest, A 14)."""
    r = C.RANK[card]
    return 14 if r == C.ACE else r


def card_points(cards: Iterable[int]) -> int:
    return sum(GAME_POINTS.get(C.RANK[c], 0) for c in cards)


def trick_winner(lead: int, follow: int, trump: int) -> int:
    """0 when the led card wins, 1 when the second card does (GAMES.md §B6 item 4)."""
    if C.SUIT[follow] == C.SUIT[lead]:
        return 1 if power(follow) > power(lead) else 0
    return 1 if C.SUIT[follow] == trump else 0


def may_follow(hand: Iterable[int], lead: int, trump: int) -> list[int]:
    """The cards the second player may play: its cards of the suit led or trumps, or any
    card when it holds neither."""
    cards = list(hand)
    fit = [c for c in cards if C.SUIT[c] in (C.SUIT[lead], trump)]
    return fit or cards


class HandResult(NamedTuple):
    """A finished hand: who took High, Low and Jack (seats), who scored Game (-1 on a tie
    of card points), each seat's card points, the points each seat earned, and the points
    that counted for the match (fewer when the target was reached part-way, item 9):
    ``reached`` names the point (``high``, ``low``, ``jack``, ``game``) with which the
    match's winner reached the target, "" when nobody did this hand."""

    trump: int
    high: int
    low: int
    jack: int
    game: int
    card_points: tuple[int, int]
    earned: tuple[int, int]
    counted: tuple[int, int]
    match_winner: int
    reached: str = ""

    def seat_of(self, point: str) -> int:
        """Who took ``point`` (``high``, ``low``, ``jack``, ``game``); -1: nobody."""
        return {"high": self.high, "low": self.low, "jack": self.jack,
                "game": self.game}[point]

    def not_counted(self) -> tuple[str, ...]:
        """The points taken this hand that did not count because the count stopped at
        the target before them, in the order they would have counted."""
        if not self.reached:
            return ()
        after = POINT_ORDER[POINT_ORDER.index(self.reached) + 1:]
        return tuple(p for p in after if self.seat_of(p) >= 0)


@register
class FollowTheRules(SeatedGame):
    info = GameInfo(
        id="follow_the_rules",
        source="001_bf5637845a306030.txt", source_game="8",
        decks=1, kind="MP", difficulty=3, score_better="higher",
    )
    options = (
        Option("target", 10, TARGET_CHOICES,
               help="points that win the match: 10, or 7 as in Foster's Hoyle"),
        Option("level", "normal", ("easy", "normal"), help="how well the computer plays"),
    )
    computer_version = "trick-1"

    def build_layout(self) -> Iterable[PileSpec]:
        yield PileSpec("S", "stock", 0, 1.8, autoflip=False)
        yield PileSpec("T", "waste", 2.4, 1.8, fan="right")
        yield PileSpec("R", "reserve", 0.3, 1.8)
        yield PileSpec("H1", "hand", 0, 3.6, fan="right", autoflip=False)
        yield PileSpec("H2", "hand", 0, 0, fan="right", autoflip=False)
        yield PileSpec("C1", "discard", 5, 3.6)
        yield PileSpec("C2", "discard", 5, 0)

    def prepare(self) -> None:
        self.stock, self.trick, self.turned = self.index["S"], self.index["T"], self.index["R"]
        self.hands = (self.index["H1"], self.index["H2"])
        self.captured = (self.index["C1"], self.index["C2"])

    # ------------------------------------------------------------------ dealing
    def deal(self, rng: Rng) -> None:
        self.vars.update(hand_no=0, dealer=rng.below(2), scores=(0, 0), results=(),
                         winner=-1)
        self._deal_hand()

    def _deal_hand(self) -> None:
        """Gather the cards and deal the next hand as the source says: one card at a time
        to each player, six rounds, the non-dealer first; the stock's top card is turned
        and put face up under the stock. The dealer alternates."""
        number = self.vars["hand_no"] + 1
        dealer = self.vars["dealer"] if number == 1 else 1 - self.vars["dealer"]
        deck = list(range(52))
        Rng(self.seed, number).shuffle(deck)
        first = 1 - dealer
        hands: tuple[list[int], list[int]] = ([], [])
        for k in range(2 * HAND_SIZE):
            hands[(first + k) % 2].append(deck.pop())
        turned = deck.pop()
        self._replace(self.stock, deck, len(deck))
        self._replace(self.turned, [turned], 0)
        self._replace(self.trick, [], 0)
        self._replace(self.hands[0], hands[0], 0)
        self._replace(self.hands[1], hands[1], len(hands[1]))
        for seat in (0, 1):
            self._replace(self.captured[seat], [], 0)
        for name, value in (("hand_no", number), ("dealer", dealer), ("turn", first),
                            ("leader", first), ("phase", "lead"), ("trump", C.SUIT[turned]),
                            ("trump_card", turned), ("last", ()), ("result", ())):
            self._set(name, value)

    # ------------------------------------------------------------------ state
    @property
    def phase(self) -> str:
        return self.vars["phase"]

    @property
    def trump(self) -> int:
        return self.vars["trump"]

    def hand(self, seat: int) -> list[int]:
        return self.cards[self.hands[seat]]

    def stock_left(self) -> int:
        """Cards still to be drawn, the trump card under the stock included."""
        return len(self.cards[self.stock]) + len(self.cards[self.turned])

    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "lead":
            return [Move("play", extra=(c,)) for c in self.hand(self.to_move)]
        if phase == "follow":
            lead = self.cards[self.trick][0]
            return [Move("play", extra=(c,))
                    for c in may_follow(self.hand(self.to_move), lead, self.trump)]
        if phase == "done":
            return [Move("next")]
        return []

    # ------------------------------------------------------------------ moves
    def apply(self, move: Move) -> None:
        if move.kind == "next":
            self._deal_hand()
            return
        seat = self.to_move
        card = move.extra[0]
        mine = self.hands[seat]
        rest = [c for c in self.cards[mine] if c != card]
        self._replace(mine, rest, len(rest) if self.is_computer(seat) else 0)
        self._replace(self.trick, [*self.cards[self.trick], card], 0)
        if self.phase == "lead":
            self._set("turn", 1 - seat)
            self._set("phase", "follow")
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        leader = self.vars["leader"]
        lead, follow = self.cards[self.trick]
        winner = leader if trick_winner(lead, follow, self.trump) == 0 else 1 - leader
        won = self.captured[winner]
        self._replace(won, [*self.cards[won], lead, follow], 0)
        self._replace(self.trick, [], 0)
        self._set("last", (leader, lead, follow, winner))
        if self.stock_left():
            self._draw(winner)
            self._draw(1 - winner)
        if not self.hand(0) and not self.hand(1):
            self._end_hand()
            return
        self._set("leader", winner)
        self._set("turn", winner)
        self._set("phase", "lead")

    def _draw(self, seat: int) -> None:
        src = self.stock if self.cards[self.stock] else self.turned
        hidden = self.is_computer(seat)
        self._move_cards(src, self.hands[seat], 1, up=not hidden)

    def _end_hand(self) -> None:
        result = self.score_hand()
        self._set("scores", tuple(a + b for a, b in zip(self.vars["scores"], result.counted,
                                                          strict=True)))
        self._set("result", result)
        self._set("results", (*self.vars["results"], result))
        self._set("winner", result.match_winner)
        self._set("turn", 0)
        self._set("phase", "match" if result.match_winner >= 0 else "done")

    def score_hand(self) -> HandResult:
        """High, Low, Jack and Game from the captured cards (every card is played, so each
        of the three trumps is always taken by someone), then the match points counted in
        the order High, Low, Jack, Game until a player reaches the target (item 9)."""
        trump = self.trump
        taken = [set(self.cards[p]) for p in self.captured]

        def taker(rank: int) -> int:
            card = C.card(rank, trump)
            return 0 if card in taken[0] else 1

        pts = (card_points(taken[0]), card_points(taken[1]))
        game = 0 if pts[0] > pts[1] else 1 if pts[1] > pts[0] else -1
        by_point = {"high": taker(C.ACE), "low": taker(2), "jack": taker(C.JACK),
                    "game": game}
        earned = [0, 0]
        counted = list(self.vars["scores"])
        target = self.opts["target"]
        match_winner, reached = -1, ""
        for name in POINT_ORDER:
            seat = by_point[name]
            if seat < 0:
                continue
            earned[seat] += 1
            if match_winner < 0:
                counted[seat] += 1
                if counted[seat] >= target:
                    match_winner, reached = seat, name
        before = self.vars["scores"]
        return HandResult(trump, by_point["high"], by_point["low"], by_point["jack"], game,
                          pts, (earned[0], earned[1]),
                          (counted[0] - before[0], counted[1] - before[1]), match_winner,
                          reached)

    # ------------------------------------------------------------------ results
    @property
    def won(self) -> bool:
        return self.phase == "match" and self.vars["winner"] == 0

    @property
    def lost(self) -> bool:
        return self.phase == "match" and self.vars["winner"] == 1

    @property
    def score(self) -> int:
        return self.vars["scores"][0]

    @property
    def final_scores(self) -> tuple[int, int]:
        """The match points (visitor, computer), the figures a table and the log show."""
        a, b = self.vars["scores"]
        return a, b

    def hand_records(self) -> list[dict[str, Any]]:
        out = []
        scores = [0, 0]
        for r in self.vars["results"]:
            scores = [scores[0] + r.counted[0], scores[1] + r.counted[1]]
            best = 0 if r.earned[0] > r.earned[1] else 1 if r.earned[1] > r.earned[0] else -1
            out.append({"kind": "hand", "winner": self.seat_word(best),
                        "points": max(r.earned), "visitor_score": scores[0],
                        "computer_score": scores[1], "level": self.opts["level"],
                        "computer_version": self.computer_version,
                        "detail": hand_result_data(r)})
        return out

    def match_record(self) -> dict[str, Any] | None:
        if self.phase != "match":
            return None
        a, b = self.vars["scores"]
        return {"game": self.info.id, "winner": self.seat_word(self.vars["winner"]),
                "visitor_score": a, "computer_score": b, "hands": len(self.vars["results"]),
                "level": self.opts["level"], "computer_version": self.computer_version,
                "detail": {"target": self.opts["target"]}}

    # ------------------------------------------------------------------ the seats
    def player(self, level: str) -> Player:
        return players.player_for(self.info.id, level)

    def view(self, seat: int) -> View:
        """What a player in ``seat`` knows: its hand, every card played (the tricks are
        played face up), the trump card while it lies under the stock or after the
        opponent drew it, and the sizes of the stock and the opponent's hand. The trick's
        winner draws the top card face down, so no other draw is known."""
        other = 1 - seat
        trump_card = self.vars["trump_card"]
        shown = tuple(c for c in self.hand(other) if c == trump_card)
        done = self.phase in ("done", "match")
        if done:
            shown = tuple(self.hand(other))
        info = {
            "hand_no": self.vars["hand_no"], "dealer": self.vars["dealer"],
            "leader": self.vars["leader"], "trump": self.trump, "trump_card": trump_card,
            "scores": self.vars["scores"], "target": self.opts["target"],
            "last": self.vars["last"], "result": self.vars["result"] or None,
        }
        return View(
            game=self.info.id, seat=seat, to_move=self.to_move, phase=self.phase,
            hand=tuple(self.hand(seat)),
            legal=tuple(self.legal_moves()) if self.to_move == seat else (),
            public={"trick": tuple(self.cards[self.trick]),
                    "turned": tuple(self.cards[self.turned]),
                    "won": tuple(self.cards[self.captured[seat]]),
                    "lost": tuple(self.cards[self.captured[other]])},
            counts={"stock": self.stock_left(), "hand": len(self.hand(other))},
            shown={other: shown},
            info=info,
        )

    # ------------------------------------------------------------------ notation
    def notation(self, move: Move) -> str:
        if move.kind == "play" and move.extra:
            return f"play:{C.text(move.extra[0])}"
        return move.kind

    def parse_move(self, text: str) -> Move:
        t = text.strip() if isinstance(text, str) else ""
        kind, colon, rest = t.partition(":")
        if kind == "play" and colon:
            try:
                card = C.parse(rest)
            except (ValueError, KeyError, IndexError):
                card = -1
            if 0 <= card < 52 and C.text(card) == rest.upper():
                return Move("play", extra=(card,))
        elif kind == "next" and not colon:
            return Move("next")
        raise IllegalMove(f"not a move of {self.info.id}: {text!r}")

    def describe(self, move: Move) -> str:
        if move.kind == "play" and move.extra:
            return f"play {C.pretty(move.extra[0])}"
        return move.kind

    def malformed(self, move: Move) -> Reason | None:
        return move_shape_problem(move, {"play": 1, "next": 0}, Reason(
            "In Follow the Rules you play one card to each trick."))

    def explain(self, move: Move) -> Reason:
        phase = self.phase
        if phase == "match":
            return Reason("The match is over.")
        if phase == "done":
            return Reason("The hand is over: deal the next hand.")
        if move.kind == "next":
            return Reason("The hand is not over yet.")
        card = move.extra[0]
        if card not in self.hand(self.to_move):
            return Reason("The {card} is not in your hand.", card=Card(card))
        lead = self.cards[self.trick][0]
        if C.SUIT[lead] == self.trump:
            return Reason("Trumps were led: you must play a trump.")
        return Reason("You must follow suit with {suit} or play a trump ({trump}).",
                      suit=Suit(C.SUIT[lead]), trump=Suit(self.trump))

    def table(self) -> dict[str, Any]:
        data = super().table()
        result = self.vars["result"]
        data["seats"] = {
            "to_move": self.to_move, "phase": self.phase, "hand_no": self.vars["hand_no"],
            "dealer": self.vars["dealer"], "scores": list(self.vars["scores"]),
            "trump": C.SUIT_NAMES[self.trump], "target": self.opts["target"],
            "level": self.opts["level"], "computer_version": self.computer_version,
            "result": hand_result_data(result) if result else None,
        }
        return data


def hand_result_data(result: HandResult) -> dict[str, Any]:
    """A hand's result as JSON-ready data, for the log and ``kiosk deal``."""
    return {"trump": C.SUIT_NAMES[result.trump], "high": result.high, "low": result.low,
            "jack": result.jack, "game": result.game,
            "card_points": list(result.card_points), "earned": list(result.earned),
            "counted": list(result.counted), "match_winner": result.match_winner,
            "reached": result.reached, "not_counted": list(result.not_counted())}
