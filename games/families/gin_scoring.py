"""Scoring a hand and a match of Gin Rummy (GAMES.md §B2): deadwood, knock, gin, undercut,
the blocked hand, and the match totals with game and box bonuses.

Why a family module: scoring reads only hands and melds (no piles, no turns), so it is
written once beside the melds it counts and checked on its own; the game file keeps the
deal, the turns, what a move does, and when a hand and a match end.
"""

from __future__ import annotations

from collections.abc import Sequence

from .gin_records import HandResult
from .melds import arrange, deadwood

KNOCK_LIMIT = 10
UNDERCUT_BONUS = 25
GIN_BONUS = 25
GAME_BONUS = 100
BOX_BONUS = 25
MATCHES = {"hands_30": 30, "hands_50": 50, "points_100": 100}


def blocked(hands: Sequence[Sequence[int]]) -> HandResult:
    """The blocked hand: a draw, both hands shown in their best arrangement."""
    (m0, d0), (m1, d1) = arrange(hands[0]), arrange(hands[1])
    return HandResult("draw", -1, -1, 0, (deadwood(hands[0]), deadwood(hands[1])),
                      (m0, m1), (d0, d1), ())


def score_hand(hands: Sequence[Sequence[int]], knocker: int, gin: bool,
               melds: tuple[tuple[int, ...], ...], laid: Sequence[tuple[int, int]]
               ) -> HandResult:
    """Score the hand: the defender's deadwood counts without the cards it laid off
    (``laid``: none after gin); the knocker loses a tie. ``melds``: the knocker's melds as
    laid down (after gin, its best arrangement is taken)."""
    defender = 1 - knocker
    mine = hands[knocker]
    k_dw = deadwood(mine)
    melds = arrange(mine)[0] if gin else melds
    used = {c for m in melds for c in m}
    k_dead = tuple(c for c in sorted(mine) if c not in used)
    where = {} if gin else dict(laid)
    rest = [c for c in hands[defender] if c not in where]
    d_dw = deadwood(rest)
    d_melds, d_dead = arrange(rest)
    if gin:
        kind, winner, points = "gin", knocker, d_dw + GIN_BONUS
    elif k_dw < d_dw:
        kind, winner, points = "knock", knocker, d_dw - k_dw
    else:
        # the defender has as little deadwood or less: it wins (K - O) + 25, and a
        # tie (K = O) gives it the 25 alone, so the knocker loses a tie
        kind, winner, points = "undercut", defender, k_dw - d_dw + UNDERCUT_BONUS
    pair_dw = (k_dw, d_dw) if knocker == 0 else (d_dw, k_dw)
    pair_melds = (melds, d_melds) if knocker == 0 else (d_melds, melds)
    pair_dead = (k_dead, d_dead) if knocker == 0 else (d_dead, k_dead)
    return HandResult(kind, knocker, winner, points, pair_dw, pair_melds, pair_dead,
                      tuple(sorted(where.items())))


def match_over(match: str, scores: Sequence[int], hands_played: int) -> bool:
    """A match of so many hands ends after the last; one to 100 when a player reaches it."""
    target = MATCHES[match]
    if match == "points_100":
        return max(scores) >= target
    return hands_played >= target


def match_totals(scores: tuple[int, int], won_hands: Sequence[int]) -> tuple[int, int]:
    """The totals of a finished match to 100 points: the winner's game bonus of 100 and
    25 a hand won (the box bonus) for each player, as standard Gin counts."""
    out = [scores[s] + BOX_BONUS * won_hands[s] for s in (0, 1)]
    out[0 if scores[0] > scores[1] else 1] += GAME_BONUS
    return (out[0], out[1])
