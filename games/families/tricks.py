"""Two-handed trick play with trumps: the rank order, who wins a trick, what may follow.

Why a family: these are the trick-taking rules of the All Fours games (GAMES.md §B6), not
of one deal; Follow the Rules, its computer player and any other member of the trick family
(the seeds' tradition has several) take them from here and keep only their own deal, play
order and scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine import cards as C
from .trick_records import POINT_ORDER, HandResult

#: card points for Game (GAMES.md §B6 item 7); the pack holds 80
GAME_POINTS = {10: 10, C.ACE: 4, C.KING: 3, C.QUEEN: 2, C.JACK: 1}


def power(card: int) -> int:
    """The card's strength within its suit: the ace is high (2 lowest, A 14)."""
    r = C.RANK[card]
    return 14 if r == C.ACE else r


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


def card_points(cards: Iterable[int]) -> int:
    return sum(GAME_POINTS.get(C.RANK[c], 0) for c in cards)


def score_all_fours(taken: tuple[set[int], set[int]], trump: int, before: Sequence[int],
                    target: int) -> HandResult:
    """High, Low, Jack and Game from the captured cards (every card is played, so each
    of the three trumps is always taken by someone), then the match points counted in
    the order High, Low, Jack, Game until a player reaches the target (item 9).

    ``taken``: each seat's captured cards; ``before``: the match points before this hand."""

    def taker(rank: int) -> int:
        card = C.card(rank, trump)
        return 0 if card in taken[0] else 1

    pts = (card_points(taken[0]), card_points(taken[1]))
    game = 0 if pts[0] > pts[1] else 1 if pts[1] > pts[0] else -1
    by_point = {"high": taker(C.ACE), "low": taker(2), "jack": taker(C.JACK),
                "game": game}
    earned = [0, 0]
    counted = list(before)
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
    return HandResult(trump, by_point["high"], by_point["low"], by_point["jack"], game,
                      pts, (earned[0], earned[1]),
                      (counted[0] - before[0], counted[1] - before[1]), match_winner,
                      reached)
