"""Engine commands: games, deal, moves, replay."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

import games
from games.engine import cards as C
from games.families.seats import SeatedGame, computer_mismatches, replay_visitor

from ._argtypes import deal_number

ORDER = 10


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``NAME=VALUE`` pairs to keyword options; values stay text, the game converts them."""
    from kiosk.commands.cli import UsageError

    out: dict[str, Any] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name or not value:
            raise UsageError(f"--option needs NAME=VALUE, not {pair!r}")
        if name != name.strip() or value != value.strip():
            raise UsageError(f"--option {pair!r}: no spaces around the name or the value")
        out[name] = value
    return out


def add_game_args(p: argparse.ArgumentParser, seed_required: bool = False) -> None:
    p.add_argument("game", help="game id (see `kiosk games`)")
    p.add_argument("--seed", type=deal_number, required=seed_required,
                   help="deal number (a positive whole number); random when left out")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a rule option, e.g. --option draw=3 (repeatable)")


def new_game(args: argparse.Namespace) -> games.Game:
    seed = args.seed if args.seed is not None else secrets.randbelow(999_999) + 1
    return games.new(args.game, seed, **parse_options(args.option))


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def text_table(game: games.Game) -> str:
    lines = [f"{game.info.names['en']} #{game.seed}"
             + (f"  options: {game.opts}" if game.opts else "")]
    for i, spec in enumerate(game.layout):
        d = game.down[i]
        shown = " ".join(C.text(c) if k >= d else "##" for k, c in enumerate(game.cards[i]))
        lines.append(f"{spec.id:>4} {spec.role:<10} {shown}")
    state = "won" if game.won else "over" if game.over else "in play"
    lines.append(f"moves {len(game.history)}  score {game.score}  {state}")
    if isinstance(game, SeatedGame):
        lines.append(seats_line(game))
    return "\n".join(lines)


def seats_line(game: SeatedGame) -> str:
    """Whose turn it is and the match so far: a seated game's table needs both to be read."""
    data = game.table().get("seats", {})
    who = "computer" if game.is_computer(game.to_move) else "visitor"
    scores = " : ".join(str(s) for s in data.get("scores", ()))
    return (f"to move: {who} (seat {game.to_move})  hand {data.get('hand_no')}  "
            f"scores visitor : computer {scores}  computer {data.get('level')} "
            f"version {data.get('computer_version')}")


def cmd_games(args: argparse.Namespace) -> int:
    cat = games.catalog()
    if args.json:
        print_json(cat)
        return 0
    for g in cat:
        print(f"{g['id']:<28} {g['names']['en']:<34} {g['names']['zh']}  /  {g['names']['ru']}")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    game = new_game(args)
    if args.json:
        table = game.table()
        table["layout"] = game.layout_data()
        print_json(table)
    else:
        print(text_table(game))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    game = new_game(args)
    moves = game.legal_moves()
    if args.json:
        print_json([{"move": game.notation(m), "text": game.describe(m)} for m in moves])
    else:
        for m in moves:
            print(f"{game.notation(m):<16} {game.describe(m)}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from kiosk.commands.cli import UsageError
    from kiosk.platform import readfile

    try:
        if args.file == "-":
            data = readfile.parse_json(readfile.read_stream(sys.stdin), "<stdin>")
        else:
            data = readfile.read_json(Path(args.file))
    except readfile.ReadError as err:
        raise UsageError(str(err)) from None
    game = replay_visitor_moves(data) if isinstance(data, dict) and "visitor_moves" in data \
        else games.from_json(data)
    check = computer_check(game, data) if isinstance(game, SeatedGame) else None
    if args.json:
        table = game.table()
        if check is not None:
            table["computer_check"] = check
        print_json(table)
    else:
        print(text_table(game))
        print("won" if game.won else "not won")
        if check is not None:
            print(check["text"])
    return 0


def replay_visitor_moves(data: dict) -> games.Game:
    """A saved game that lists only the visitor's moves (``visitor_moves``, the support
    case "deal #4711, I did this"): the computer answers each as it would at the table."""
    moves = data.get("visitor_moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise games.GameError("saved game: 'visitor_moves' must be a list of move texts")
    game = games.from_json({**data, "moves": []})
    if not isinstance(game, SeatedGame):
        raise games.GameError(f"saved game: {game.info.id} has no computer seats, so "
                              "'visitor_moves' means nothing; list 'moves'")
    for number, text in enumerate(moves, 1):
        try:
            replay_visitor(game, [text])
        except games.GameError as err:
            raise games.GameError(f"saved game: visitor move {number} ({text}) cannot be "
                                  f"replayed: {err}") from None
    return game


def check_computer_block(game: SeatedGame, data: Any) -> None:
    """A saved game's ``"computer"`` block is what the replay is checked against (the
    level and version that played): junk there would make the check say nothing, so it is
    refused like any other bad field of the file."""
    if not isinstance(data, dict) or "computer" not in data:
        return
    block = data["computer"]
    if not isinstance(block, dict):
        raise games.GameError("saved game: 'computer' must be an object with 'level' and "
                              "'version'")
    unknown = sorted(set(block) - {"level", "version"})
    if unknown:
        raise games.GameError(f"saved game: 'computer' has no field {unknown[0]!r} (only "
                              "'level' and 'version')")
    levels = next((o.choices for o in game.options if o.name == "level"), ())
    level = block.get("level")
    if "level" in block and (not isinstance(level, str) or (levels and level not in levels)):
        raise games.GameError(f"saved game: computer level {str(level)[:40]!r} is not one of "
                              f"{', '.join(map(str, levels))}")
    if level is not None and level != game.opts.get("level", level):
        raise games.GameError(f"saved game: computer level {level!r} differs from the "
                              f"options' level {game.opts.get('level')!r}")
    version = block.get("version")
    if "version" in block and (not isinstance(version, str) or not version
                               or len(version) > 40):
        raise games.GameError("saved game: computer version must be a short text")


def computer_check(game: SeatedGame, data: Any) -> dict[str, Any]:
    """Whether today's computer player makes the recorded computer moves."""
    check_computer_block(game, data)
    recorded = data.get("computer", {}) if isinstance(data, dict) else {}
    version = recorded.get("version") if isinstance(recorded, dict) else None
    bad = computer_mismatches(game)
    text = (f"computer moves: as version {game.computer_version} plays them" if not bad else
            f"computer moves differ from version {game.computer_version} at move"
            f"{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad[:10]))}")
    if version is not None and version != game.computer_version:
        text += f" (recorded with version {version})"
    return {"version": game.computer_version, "recorded_version": version,
            "mismatches": bad, "text": text}


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list every game with its names")
    p.add_argument("--json", action="store_true", help="full catalog as JSON")
    p.set_defaults(handler=cmd_games)

    p = sub.add_parser("deal", help="show a dealt table")
    add_game_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_deal)

    p = sub.add_parser("moves", help="legal moves in the dealt position")
    add_game_args(p, seed_required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_moves)

    p = sub.add_parser("replay", help="replay a saved game (JSON) and show the final table")
    p.add_argument("file", help="saved game file, or - for standard input")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_replay)
