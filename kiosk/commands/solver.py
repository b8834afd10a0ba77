"""Solver commands: solve one deal, collect winnable deals."""

from __future__ import annotations

import argparse
import signal
import time

import games

from ._argtypes import seconds, whole
from .engine import add_game_args, parse_options, print_json

ORDER = 40


def solve_deal(game_id: str, seed: int, options: dict, max_seconds: float,
               max_nodes: int, cpu: bool = False) -> dict:
    """``cpu`` counts the budget in CPU seconds of this process rather than on the wall
    clock: on a machine busy with other jobs a wall-clock budget would measure the share of
    the processor the search got, and the same deal would be won one day and not the next."""
    from games.solver import solve

    clock = time.process_time if cpu else time.monotonic
    game = games.new(game_id, seed, **options)
    start = clock()
    deadline = start + max_seconds
    result = solve(game, max_nodes=max_nodes, should_stop=lambda: clock() >= deadline)
    return {
        "game": game_id, "seed": seed, "options": game.opts, "result": result.result,
        "moves": [game.notation(m) for m in result.moves] if result.won else [],
        "nodes": result.nodes, "seconds": round(clock() - start, 3),
    }


def solitaire(game_id: str) -> str:
    """``game_id`` when it is a solitaire: the solver searches one player's moves with every
    card known in the end, which is no question to ask of a game against the computer (it
    answered "unknown" for each deal, and ``winnable`` never found one: it ran forever)."""
    from kiosk.commands.cli import UsageError

    if games.listed(game_id).seated:
        raise UsageError(f"{game_id} is played against the computer; the solver is for "
                         "solitaires (see `kiosk games`)")
    return game_id


def cmd_solve(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError

    solitaire(args.game)
    if args.seed is None:
        raise UsageError("solve needs --seed N")
    out = solve_deal(args.game, args.seed, parse_options(args.option), args.max_seconds,
                     args.max_nodes, args.cpu)
    if args.json:
        print_json(out)
    else:
        print(f"{out['game']} #{out['seed']}: {out['result']} "
              f"({out['nodes']} positions, {out['seconds']} s)")
        if out["moves"]:
            print(" ".join(out["moves"]))
    return 0


#: a long run saves its progress at least this often (seconds), so an interrupted run
#: loses little and the next one resumes after the last deal tried
SAVE_EVERY = 60.0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def cmd_winnable(args: argparse.Namespace) -> int:
    """Grow a game's list to ``--count`` deals. Resumable: deal numbers are tried in order
    after the list's ``last_seed``, the deals already there are kept, and progress is saved
    atomically every :data:`SAVE_EVERY` seconds and on Ctrl-C, so running the same command
    again (or with a higher count) carries on where the last run stopped."""
    from kiosk.commands.cli import UsageError
    from kiosk.solving import deals

    solitaire(args.game)
    if args.count < 1:
        raise UsageError("--count must be at least 1")
    options = parse_options(args.option)
    game = games.new(args.game, 1, **options)  # validates id and options
    try:
        existing = None if args.fresh else deals.load_strict(args.game, game.opts)
    except deals.DealListError as err:
        raise UsageError(f"{err}; fix or remove it, or start again with --fresh") from err
    lst = existing or deals.DealList(args.game, game.opts)
    tally = {"won": 0, "lost": 0, "unknown": 0, **lst.results}
    have = set(lst.seeds)
    if len(have) >= args.count:
        print(f"{len(have)} deals already in {deals.list_path(args.game, game.opts)}; "
              f"nothing to do (ask for more with --count)")
        return 0
    lst.solver.update({"max_seconds": args.max_seconds, "max_nodes": args.max_nodes,
                       "clock": "cpu" if args.cpu else "wall"})
    last = lst.solver.get("last_seed")
    if not isinstance(last, int):
        last = max(have, default=args.start - 1)
    seed = max(last + 1, args.start)
    found = tried = 0
    saved_at = time.monotonic()
    old_term = signal.signal(signal.SIGTERM, _interrupt)  # `kill` saves like Ctrl-C
    try:
        while len(have) < args.count:
            if seed not in have:
                out = solve_deal(args.game, seed, options, args.max_seconds, args.max_nodes,
                                 args.cpu)
                tried += 1
                tally[out["result"]] += 1
                if out["result"] == "won":
                    dealt = games.new(args.game, seed, **options)
                    lst.deals.append({"seed": seed,
                                      "moves": deals.compress(dealt, out["moves"])})
                    have.add(seed)
                    found += 1
                lst.solver.update({"results": dict(tally), "last_seed": seed})
                if time.monotonic() - saved_at >= SAVE_EVERY:
                    deals.save(lst)
                    saved_at = time.monotonic()
                if not args.quiet:
                    print(f"#{seed}: {out['result']} ({out['seconds']} s)", flush=True)
            seed += 1
    except KeyboardInterrupt:
        path = deals.save(lst)
        print(f"interrupted: {found} winnable deals added ({tried} tried); {len(lst.deals)} "
              f"in {path}; run again to go on", flush=True)
        return 130
    finally:
        signal.signal(signal.SIGTERM, old_term)
    path = deals.save(lst)
    print(f"{found} winnable deals added ({tried} tried); {len(lst.deals)} in {path}")
    return 0


CPU_HELP = "count --max-seconds in CPU time of this process (a machine busy with other jobs)"


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="decide whether a deal can be won, and how")
    add_game_args(p)
    p.add_argument("--max-seconds", type=seconds(), default=10.0,
                   help="search budget (seconds, more than 0)")
    p.add_argument("--max-nodes", type=whole(1), default=5_000_000)
    p.add_argument("--json", action="store_true")
    p.add_argument("--cpu", action="store_true", help=CPU_HELP)
    p.set_defaults(handler=cmd_solve)

    p = sub.add_parser("winnable", help="find deals the solver wins; write assets/deals/GAME.json")
    p.add_argument("game")
    p.add_argument("--count", type=whole(1), required=True,
                   help="how many deals the list should hold (a rerun goes on from the last "
                   "deal number tried and keeps the deals already found)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE")
    p.add_argument("--start", type=whole(1), default=1, help="first deal number to try")
    p.add_argument("--max-seconds", type=seconds(), default=10.0,
                   help="search budget (seconds, more than 0)")
    p.add_argument("--max-nodes", type=whole(1), default=5_000_000)
    p.add_argument("--fresh", action="store_true", help="start a new list instead of adding")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--cpu", action="store_true", help=CPU_HELP)
    p.set_defaults(handler=cmd_winnable)
