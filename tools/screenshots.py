#!/usr/bin/env python3
"""Regenerate docs/screenshots/: every screen, at 800x480 and 720x1280, in every language.

Runs the real app headless (SDL offscreen) in one process, resizing its window, and saves
what the window shows: welcome (plain and with today's wins), picker, table (Klondike
mid-game and a pairing game with a selection), Klondike's variant sheet, a hint, the "no way to win" message and a
move suggested when no win was found in time (the real solver worker answers), rules, win,
"no more moves", attract mode, the operator's PIN keypad and the operator menu's pages
(statistics from a made-up play log in a temporary directory).

    python3 tools/screenshots.py [--out docs/screenshots] [--sizes 800x480,720x1280]
                                 [--only welcome,operator,...]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk.platform import boot  # noqa: E402
from tools.shot_app import frames, start_app, temporary_home  # noqa: E402
from tools.shot_app import shot as shot_to  # noqa: E402

LANGS = ("zh", "en", "ru")



def show_update_offer(app) -> None:
    """The Software update page as an operator meets it with a stick plugged in: a newer,
    trusted bundle offered (off the kiosk's image the page finds no slots and no stick)."""
    from types import SimpleNamespace

    from tests.ui.update_states import update_page_states

    class Patch:
        @staticmethod
        def setattr(target, name, value) -> None:
            setattr(target, name, value)

    states = dict(update_page_states(SimpleNamespace(app=app), Patch()))
    states["update offer"]()

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--sizes", default="800x480,720x1280")
    ap.add_argument("--only", default="", help="comma-separated name prefixes to shoot")
    args = ap.parse_args()
    only = [o for o in args.only.split(",") if o]
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    boot.configure(boot.Screen(*sizes[0], headless=True), quiet=True)

    from kivy.core.window import Window

    import games
    from games.engine import cards as C
    from kiosk.records.playlog import PlayLog
    from kiosk.settings import config

    home = temporary_home("kiosk-shots-", before_log='name = "Library lobby"\n',
                          after_log="[buttons]\nundo_pin = 30\n")
    cfg = config.load(home / "config.toml")
    playlog = PlayLog(home / "plays.db", kiosk=cfg.name, min_free_mb=0)
    rnd = random.Random(7)
    for game_id, plays, wins in (("klondike", 14, 5), ("pyramid", 9, 2), ("golf", 7, 3),
                                 ("spider" if "spider" in games.ids() else "scorpion", 4, 0),
                                 ("clock", 6, 1), ("canfield", 3, 1)):
        for k in range(plays):
            play = playlog.begin(game_id, rnd.randint(1, 99999))
            playlog.move(play, "deal")
            play.t0 -= rnd.uniform(90, 900)
            playlog.finish(play, "won" if k < wins else rnd.choice(["lost", "abandoned"]))
    app = start_app(home, services=True, playlog=playlog)

    def shot(name: str) -> None:
        if only and not any(name.startswith(o) for o in only):
            return
        shot_to(args.out / name)

    def midgame() -> games.Game:
        g = games.new("klondike", 4711)
        rnd = random.Random(3)
        for _ in range(40):
            moves = g.legal_moves()
            good = [m for m in moves if m.kind == "move"
                    and g.layout[m.dst].role in ("foundation", "tableau")
                    and g.layout[m.src].role != "foundation"
                    and not (g.layout[m.dst].role == "tableau" and not g.cards[m.dst])]
            if not moves:
                break
            g.play(rnd.choice(good) if good else moves[0])
        return g

    def won() -> games.Game:
        g = games.new("klondike", 4711)
        for i in range(len(g.cards)):
            g.cards[i], g.down[i] = [], 0
        for k, f in enumerate(g.roles["foundation"]):
            g.cards[f] = [C.card(r, k) for r in range(1, 14)]
        g.cards[g.roles["foundation"][3]].pop()
        g.cards[g.index["T4"]] = [C.card(13, C.SPADES)]
        return g

    def stuck() -> games.Game:
        g = games.new("klondike", 4711)
        layout = {"T1": "2H", "T2": "5C", "T3": "KD QC", "T4": "4C", "T5": "7S", "T6": "9H",
                  "T7": "JC"}
        for i, spec in enumerate(g.layout):
            g.cards[i] = [C.parse(t) for t in layout.get(spec.id, "").split()]
            g.down[i] = 0
        return g

    def endgame() -> games.Game:
        """A late Klondike position the solver decides at once (for the hint shots)."""
        g = games.new("klondike", 4711)
        layout = {**{f"F{k + 1}": " ".join(f"{r}{s}" for r in "A23456789")
                     for k, s in enumerate("CDHS")},
                  "T1": "KH QC", "T2": "KS QH JS", "T3": "KD JH", "T4": "KC QS JD TC",
                  "T5": "JC TS", "S": "TH QD TD"}
        for i, spec in enumerate(g.layout):
            g.cards[i] = [C.parse(t) for t in layout.get(spec.id, "").split()]
            g.down[i] = {"T5": 1, "S": 3}.get(spec.id, 0)
        return g

    def hopeless() -> games.Game:
        g = stuck()
        g.cards[g.index["T3"]] = [C.parse("KD")]
        g.cards[g.index["W"]] = [C.parse("QC")]
        g.cards[g.index["S"]] = [C.parse(t) for t in ("8D", "3S", "6H")]
        g.down[g.index["S"]] = 3
        g.play("deal")
        return g

    def wait_for(condition, seconds: float = 60.0) -> bool:
        import time

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if condition():
                return True
            frames(1)
            time.sleep(0.01)
        return False

    def hint_shots(tag: str, lang: str) -> None:
        if only and not any(o.startswith(("hint", "nowin", "suggest")) for o in only):
            return
        app.open_position(endgame())
        frames()
        table = app.table
        table.help.hint()
        if not wait_for(lambda: table.view.hint_move is not None):
            raise SystemExit("the hint worker gave no hint")
        table.help._show_verdict("won")
        frames()
        shot(f"hint-{tag}-{lang}.png")
        app.open_position(hopeless())
        frames()
        table.help.hint()
        if not wait_for(lambda: table._sheet_kind == "nowin"):
            raise SystemExit("the hint worker did not find the loss")
        frames()
        shot(f"nowin-{tag}-{lang}.png")
        table.close_sheet()
        # far beyond the hint budget: the best-rated move, said as a suggestion
        budget = app.cfg.table.hint_seconds
        app.cfg.table.hint_seconds = 0.2
        try:
            app.open_game("napoleons_tomb", 1)
            frames()
            table.help.hint()
            if not wait_for(lambda: table.help._hint_req is None
                            and table.view.hint_move is not None):
                raise SystemExit("the hint worker gave no suggestion")
        finally:
            app.cfg.table.hint_seconds = budget
        frames()
        shot(f"suggest-{tag}-{lang}.png")

    args.out.mkdir(parents=True, exist_ok=True)
    for w, h in sizes:
        Window.size = (w, h)
        frames(4)
        tag = f"{w}x{h}"
        for lang in LANGS:
            app.set_language(lang)
            app.table.close_sheet()
            app.show_welcome()
            app.welcome.show_wins(0)  # the plain welcome screen; the wins have their own
            frames()
            shot(f"welcome-{tag}-{lang}.png")
            app.show_picker()
            frames()
            shot(f"picker-{tag}-{lang}.png")
            app.choose_game("klondike")  # the variant sheet: each variant and what it means
            frames()
            shot(f"variants-{tag}-{lang}.png")
            ctl = app.open_position(midgame())
            frames()
            shot(f"table-{tag}-{lang}.png")
            app.table.show_rules()
            frames()
            shot(f"rules-{tag}-{lang}.png")
            app.table.close_sheet()
            ctl = app.open_position(won())
            frames()
            ctl.play(next(m for m in ctl.legal_moves() if m.kind == "move"
                          and ctl.game.layout[m.dst].role == "foundation"), "tap")
            app.table._show_won()
            frames()
            shot(f"win-{tag}-{lang}.png")
            ctl = app.open_position(stuck())
            frames()
            app.table._show_over()
            frames()
            shot(f"over-{tag}-{lang}.png")
            app.table.close_sheet()
            hint_shots(tag, lang)
            # the new screens: welcome with today's wins, attract mode, PIN, operator menu
            app.show_welcome()
            app.welcome.show_wins(12)
            frames()
            shot(f"welcome-wins-{tag}-{lang}.png")
            app.attract._rnd = random.Random(5)
            app.attract.start()
            app.attract._index = app.game_ids().index("klondike") - 1
            app.attract._next_game()
            for _ in range(30):
                app.attract._step(0)
            frames()
            shot(f"attract-{tag}-{lang}.png")
            app.attract.stop()
            app.show_pin()
            app.pin.entered = "123"
            app.pin._show()
            frames()
            shot(f"operator-pin-{tag}-{lang}.png")
            for page in app.operator.PAGES:
                app.show_operator(page)
                if page == "update":
                    show_update_offer(app)
                frames()
                shot(f"operator-{page}-{tag}-{lang}.png")
            # the three tables against the computer: the Leave panel over a match under
            # way (the computer waits while it is up)
            for game_id, options, attr, plain in (
                    ("gin_rummy", {}, "gin", "gin-play"),
                    ("follow_the_rules", {}, "trick_table", "trick-play"),
                    ("draw_poker", {"opponents": 3}, "poker", "")):
                if only and not any(f"leave-{game_id}".startswith(o) or
                                    (plain and plain.startswith(o)) for o in only):
                    continue
                ctl = app.open_game(game_id, 77, dict(options))
                screen = getattr(app, attr)
                screen.turns.pause = 3600
                frames(4)
                if plain:  # the table as the visitor first sees it (poker's: its own tool)
                    shot(f"{plain}-{tag}-{lang}.png")
                screen.ask_leave()
                frames()
                shot(f"leave-{game_id}-{tag}-{lang}.png")
                screen.stay()
                ctl.leave("button")
            # "Still playing?" over a game, as the lobby shows it before an idle reset
            app.open_position(midgame())
            frames()
            app.lobby._show_warning(app.lobby.warning_seconds)
            frames()
            shot(f"idle-warning-{tag}-{lang}.png")
            app.lobby._hide_warning()
            app.show_welcome()
            if lang == "en" and "pyramid" in games.ids():
                ctl = app.open_game("pyramid", 3)
                frames()
                view = app.table.view
                for i, pile in enumerate(ctl.game.cards):
                    if not pile or ctl.game.layout[i].role == "stock" or \
                            len(view.interaction.other_moves(i)) < 2:
                        continue
                    result = view.interaction.tap(i, len(pile) - 1)
                    if result.outcome == "selected":
                        view.show_targets(result.highlight)
                        break
                frames()
                shot(f"table-pyramid-{tag}-{lang}.png")
                view.interaction.reset()
    app.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
