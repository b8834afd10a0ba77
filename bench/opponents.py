"""How strong the computer players are, and how long they think.

    python bench/opponents.py [--matches 200] [--slowdown auto|X] [--no-write]

Gin Rummy: the normal player against the simple baseline (take the upcard only if it makes
a meld, discard the highest unmatched card, knock as soon as allowed) and against the easy
player, over ``--matches`` matches to 100 points (the shortest match the rules offer; the
30-hand match of the source is the same hands, more of them). Each pairing plays every deal
twice with the seats swapped, so the luck of the cards cancels; the figure is the share of
matches normal wins, with a 95% Wilson interval, and the hands won and points per hand.

Decision times: every normal decision of those matches is timed (CPU time) and shown
as an estimate for a Raspberry Pi 4 (this machine slowed down ``X`` times, ``X`` from the
n-body calibration of bench/hint.py; the target is 0.5 s a decision on the Pi).

Results go to docs/benchmarks.md under "## Computer opponents (bench/opponents.py)".

Draw Poker (``--poker HANDS``, instead of Gin Rummy): normal against easy, single hands of
a fresh 1000-chip table, heads-up and at four seats (normal in one seat, easy in the
others), every deal played once with normal in each seat so the cards cancel; the figure
is normal's net chips a hand with a 95% interval (normal approximation over the paired
deals), and its decision times as above. Results go under "## Draw Poker opponents
(bench/opponents.py --poker)".

Follow the Rules (``--trick MATCHES``, instead of Gin Rummy): the normal trick player
against a random legal player and against easy, matches to 10 points, every deal played
twice with the seats swapped; the share of matches normal wins with a 95% Wilson interval,
the hand points it takes a hand against the opponent's, and its decision times as above
(sampled play-outs while the stock lasts, the exact solution of the last tricks after).
Results go under "## Follow the Rules opponents (bench/opponents.py --trick)".
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bench._report import write_section  # noqa: E402
from bench.hint import measured_slowdown  # noqa: E402
from games.players.gin import baseline, easy, normal  # noqa: E402

TITLE = "Computer opponents (bench/opponents.py)"
POKER_TITLE = "Draw Poker opponents (bench/opponents.py --poker)"
TRICK_TITLE = "Follow the Rules opponents (bench/opponents.py --trick)"
PLAYERS = {"normal": normal, "easy": easy, "baseline": baseline}


def pi_decision_times(times: list[float], slowdown: float,
                      start: float) -> tuple[float, tuple[float, float, float]]:
    """The seconds since ``start`` (a ``perf_counter``) and the median, 99th percentile and
    slowest decision scaled to a Pi 4 (printed too): every game reports the same figures."""
    wall = time.perf_counter() - start
    times.sort()
    pi = [t * slowdown for t in times]
    median, p99, worst = statistics.median(pi), pi[int(0.99 * (len(pi) - 1))], pi[-1]
    print(f"{len(times)} decisions; Pi 4 estimate median {median * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {worst * 1000:.1f} ms; {wall:.0f} s")
    return wall, (median, p99, worst)


def machine(players: str, game_id: str) -> str:
    """Each section's first sentence: where it ran and which players' version it measured,
    so a figure is never read against the wrong version."""
    return (f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}; games.players.{players} version "
            f"{games.game_class(game_id).computer_version}.")


def decision_times(counted: str, slowdown: float, auto: bool,
                   figures: tuple[float, float, float]) -> str:
    """Each section's sentence on the normal player's decision times on a Pi 4 (``counted``
    says which decisions), up to "CPU time of the deciding thread" for the caller to end."""
    median, p99, worst = figures
    return (f"Decision time of the normal player ({counted}), estimated for a Raspberry Pi 4 "
            f"Model B as this machine slowed down {slowdown:.1f} times "
            f"({'n-body calibration of bench/hint.py' if auto else 'given'}): median "
            f"{median * 1000:.1f} ms, 99th percentile {p99 * 1000:.1f} ms, slowest "
            f"{worst * 1000:.1f} ms (target: 500 ms). CPU time of the deciding thread")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_match(seed: int, seat_players: tuple, times: list[float] | None) -> dict:
    """One match; ``times`` collects the seconds of every decision by ``normal``."""
    g = games.new("gin_rummy", seed, match="points_100")
    while True:
        legal = g.legal_moves()
        if not legal:
            break
        player = seat_players[g.to_move]
        view = g.view(g.to_move)
        start = time.thread_time()  # CPU time: waits for a shared CPU are not the Pi's
        move = player(view, g.computer_rng())
        spent = time.thread_time() - start
        if times is not None and player is normal and len(legal) > 1:
            times.append(spent)
        g.make(move)  # the players only choose from view.legal
    a, b = g.final_scores
    results = g.vars["results"]
    return {"winner": 0 if a > b else 1 if b > a else -1, "hands": len(results),
            "won": [sum(1 for r in results if r.winner == s) for s in (0, 1)],
            "points": [sum(r.points for r in results if r.winner == s) for s in (0, 1)]}


def pairing(opponent: str, matches: int, times: list[float]) -> dict:
    wins = hands = won = lost = pts = opp_pts = 0
    for k in range(matches):
        seed = 1000 + k // 2
        normal_seat = k % 2  # every deal twice, seats swapped
        seats = [PLAYERS[opponent], PLAYERS[opponent]]
        seats[normal_seat] = normal
        r = play_match(seed, tuple(seats), times)
        other = 1 - normal_seat
        wins += 1 if r["winner"] == normal_seat else 0.5 if r["winner"] < 0 else 0
        hands += r["hands"]
        won, lost = won + r["won"][normal_seat], lost + r["won"][other]
        pts, opp_pts = pts + r["points"][normal_seat], opp_pts + r["points"][other]
    lo, hi = wilson(wins, matches)
    return {"opponent": opponent, "matches": matches, "share": wins / matches, "lo": lo,
            "hi": hi, "hands": hands, "won": won, "lost": lost,
            "ppg": (pts - opp_pts) / hands}


def poker_hand(seed: int, seats: int, normal_seat: int, times: list[float]) -> int:
    """One Draw Poker hand with ``normal`` in ``normal_seat`` and easy elsewhere: the chips
    normal nets (its stack after the hand less its stack before the ante)."""
    from games.players import poker

    g = games.new("draw_poker", seed, opponents=seats - 1, wild="bug")
    while g.phase not in ("done", "over"):
        legal = g.legal_moves()
        seat = g.to_move
        view = g.view(seat)
        start = time.thread_time()
        move = (poker.normal if seat == normal_seat else poker.easy)(view, g.computer_rng())
        spent = time.thread_time() - start
        if seat == normal_seat and len(legal) > 1:
            times.append(spent)
        g.make(move)
    return g.vars["chips"][normal_seat] - 1000


def poker_pairing(seats: int, deals: int, times: list[float]) -> dict:
    per_deal = []
    for k in range(deals):
        per_deal.append(sum(poker_hand(3000 + k, seats, s, times) for s in range(seats)) / seats)
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
    return {"seats": seats, "deals": deals, "mean": mean, "lo": mean - half,
            "hi": mean + half, "better": sum(1 for x in per_deal if x > 0),
            "worse": sum(1 for x in per_deal if x < 0)}


def poker_main(deals: int, slowdown: float, auto: bool, write: bool) -> int:
    times: list[float] = []
    start = time.perf_counter()
    rows = []
    for seats in (2, 4):
        r = poker_pairing(seats, deals, times)
        rows.append(r)
        print(f"{seats} seats: normal nets {r['mean']:+.1f} chips a hand (95% "
              f"{r['lo']:+.1f} to {r['hi']:+.1f}) over {deals} deals x {seats} seats",
              flush=True)
    wall, figures = pi_decision_times(times, slowdown, start)
    lines = [
        f"{machine('poker', 'draw_poker')} Single hands of Draw Poker "
        f"(bug joker, droppers pay the open) from a fresh table, deals 3000 on, each deal "
        f"played with normal in every seat in turn and easy in the others. Net chips a "
        f"hand averaged over the seats of a deal; 95% interval over the deals. Run "
        f"`python bench/opponents.py --poker {deals}` ({wall:.0f} s here).",
        "",
        "| seats | deals | normal nets a hand | 95% interval | deals normal ahead : behind |",
        "|---:|---:|---:|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['seats']} | {r['deals']} | {r['mean']:+.1f} | {r['lo']:+.1f} to "
                     f"{r['hi']:+.1f} | {r['better']} : {r['worse']} |")
    lines += [
        "",
        decision_times(f"{len(times)} decisions with a choice", slowdown, auto, figures) + ".",
        "",
        "Changed from poker-1 (+0.7 and +1.3 chips a hand over 450 deals, both intervals "
        "touching 0): normal reads the others' hands from what they did (the opener had "
        "openers, a stand-pat a made hand, one card drawn two pairs or a draw, a raise "
        "strength; games/players/poker_odds.py), calls by pot odds that count the open a "
        "dropper pays anyway (poker-1 dropped hands it could call for nothing), bets and "
        "raises for value past an even share, and bluffs rarely and only after the draw. "
        "easy is unchanged.",
    ]
    if write:
        write_section(POKER_TITLE, "\n".join(lines))
    return 0


def trick_match(seed: int, normal_seat: int, opponent: str,
                times: list[float]) -> dict:
    """One Follow the Rules match to 10 with the trick player ``normal`` in
    ``normal_seat`` against ``opponent`` (``randomly`` or ``easy``); times the normal
    decisions that had a choice."""
    from games.players import trick

    g = games.new("follow_the_rules", seed)
    seats = [getattr(trick, opponent)] * 2
    seats[normal_seat] = trick.normal
    while g.legal_moves():
        seat = g.to_move
        view = g.view(seat)
        start = time.thread_time()
        move = seats[seat](view, g.computer_rng())
        spent = time.thread_time() - start
        if seat == normal_seat and len(view.legal) > 1:
            times.append(spent)
        g.make(move)
    results = g.vars["results"]
    return {"won": g.vars["winner"] == normal_seat, "hands": len(results),
            "mine": sum(r.earned[normal_seat] for r in results),
            "theirs": sum(r.earned[1 - normal_seat] for r in results)}


def trick_main(matches: int, slowdown: float, auto: bool, write: bool) -> int:
    times: list[float] = []
    start = time.perf_counter()
    rows = []
    for opponent in ("randomly", "easy"):
        wins = hands = mine = theirs = 0
        for k in range(matches):
            r = trick_match(5000 + k // 2, k % 2, opponent, times)
            wins += r["won"]
            hands, mine, theirs = hands + r["hands"], mine + r["mine"], theirs + r["theirs"]
        lo, hi = wilson(wins, matches)
        rows.append({"opponent": opponent, "matches": matches, "share": wins / matches,
                     "lo": lo, "hi": hi, "hands": hands, "mine": mine, "theirs": theirs})
        print(f"trick normal vs {opponent}: {wins / matches:.1%} of {matches} matches (95% "
              f"{lo:.1%}-{hi:.1%}), hand points {mine} : {theirs} over {hands} hands",
              flush=True)
    wall, figures = pi_decision_times(times, slowdown, start)
    names = {"randomly": "a random legal player", "easy": "easy"}
    lines = [
        f"{machine('trick', 'follow_the_rules')} Follow the Rules matches "
        f"to 10 points, every deal played twice with the seats swapped (deals 5000 on). "
        f"95% Wilson intervals. Run `python bench/opponents.py --trick {matches}` "
        f"({wall:.0f} s here).",
        "",
        "| normal against | matches | normal wins | 95% interval | hands | hand points "
        "normal : opponent |",
        "|---|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lines.append(f"| {names[r['opponent']]} | {r['matches']} | {r['share']:.1%} | "
                     f"{r['lo']:.1%} - {r['hi']:.1%} | {r['hands']} | "
                     f"{r['mine']} : {r['theirs']} |")
    lines += [
        "",
        decision_times(f"{len(times)} decisions with a choice", slowdown, auto, figures) +
        f". The slowest decisions are early in a hand with six cards to choose from: while the "
        f"stock lasts the player plays out up to {_trick_samples()} random deals of the "
        f"unseen cards for each candidate card ({_trick_playouts()} play-outs at most); "
        f"once it is empty it solves the last tricks exactly (a few thousand positions). "
        f"The calibration moves with the load of a shared machine: at a slowdown of 5.5 "
        f"(the hint section's) the slowest would be {figures[2] / slowdown * 5.5 * 1000:.0f} ms.",
    ]
    if write:
        write_section(TRICK_TITLE, "\n".join(lines))
    return 0


def _trick_samples() -> int:
    from games.players.trick import SAMPLES

    return SAMPLES


def _trick_playouts() -> int:
    from games.players.trick import PLAYOUTS

    return PLAYOUTS


def gin_main(matches: int, slowdown: float, auto: bool, write: bool) -> int:
    times: list[float] = []
    start = time.perf_counter()
    rows = []
    for opponent in ("baseline", "easy"):
        r = pairing(opponent, matches, times)
        rows.append(r)
        print(f"normal vs {opponent}: {r['share']:.1%} of {r['matches']} matches "
              f"(95% {r['lo']:.1%}-{r['hi']:.1%}), {r['ppg']:+.1f} points a hand", flush=True)
    wall, figures = pi_decision_times(times, slowdown, start)
    lines = [
        f"{machine('gin', 'gin_rummy')} Gin Rummy matches to 100 points, "
        f"every deal played twice with the seats swapped (deals 1000 on); the share counts a "
        f"drawn match as half. 95% Wilson intervals. Run `python bench/opponents.py` "
        f"({wall:.0f} s here).",
        "",
        "| normal against | matches | normal wins | 95% interval | hands won : lost "
        "| net points a hand |",
        "|---|---:|---:|---|---|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['opponent']} | {r['matches']} | {r['share']:.1%} | "
                     f"{r['lo']:.1%} - {r['hi']:.1%} | {r['won']} : {r['lost']} | "
                     f"{r['ppg']:+.1f} |")
    lines += [
        "",
        decision_times(f"every decision with a choice, {len(times)} of them", slowdown, auto,
                       figures) +
        ", so waits for a shared CPU are left out; the view is built by the game before "
        "the clock starts (a few deadwood searches, cached).",
        "",
        "The baseline is no level a visitor meets; easy plays like it with a careless "
        "discard now and then, so it is the weaker of the two. Hands won count hands, not "
        "points: late in a hand normal waits for less deadwood before it knocks (the "
        "undercut costs 25), so it can win fewer hands than an opponent that knocks at once "
        "and still win on points.",
    ]
    if write:
        write_section(TITLE, "\n".join(lines))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--slowdown", default="auto")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--poker", type=int, default=0, metavar="DEALS",
                    help="bench the Draw Poker players over DEALS deals instead of Gin Rummy")
    ap.add_argument("--trick", type=int, default=0, metavar="MATCHES",
                    help="bench the Follow the Rules players over MATCHES matches (even)")
    args = ap.parse_args()
    if args.poker < 0:
        ap.error("--poker must be a positive number of deals")
    if args.trick < 0 or args.trick % 2:
        ap.error("--trick must be a positive even number of matches (each deal twice)")
    if args.matches <= 0 or args.matches % 2:
        ap.error("--matches must be a positive even number (each deal is played twice)")
    try:
        slowdown = measured_slowdown() if args.slowdown == "auto" else float(args.slowdown)
    except ValueError:
        ap.error(f"--slowdown must be 'auto' or a number, not {args.slowdown!r}")
    if args.trick:
        return trick_main(args.trick, slowdown, args.slowdown == "auto", not args.no_write)
    if args.poker:
        return poker_main(args.poker, slowdown, args.slowdown == "auto", not args.no_write)
    return gin_main(args.matches, slowdown, args.slowdown == "auto", not args.no_write)


if __name__ == "__main__":
    sys.exit(main())
