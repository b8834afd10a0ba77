"""The variant sheet's descriptions read at the reading floor: each variant (and each level
of a game against the computer) is its name and, under it, what it means, at 18 px a unit
(they were a 15 px markup line, caps 11 px, at 800x480), whole, in zh, en and ru at both
sizes; a sheet too crowded for them (Draw Poker's seven) keeps the names alone."""

from __future__ import annotations

import games
from kiosk.settings import variants
from kiosk.settings.config import table_can_play

from .floors import text_floor_problems
from .test_text_fit import LANGS, SIZES, label_problems


def test_every_description_is_whole_at_the_floor(ui):
    problems, missing = [], []
    sheets = [g for g in filter(table_can_play, games.ids())
              if len(variants.offered(ui.app.cfg, g)) >= 2]
    assert {"klondike", "gin_rummy", "draw_poker"} <= set(sheets)
    for size in SIZES:
        for lang in LANGS:
            ui.reset(lang, size)
            for game_id in sheets:
                ui.app.choose_game(game_id)
                ui.frames(2)
                sheet = ui.app.variants
                where = f"{game_id} {lang} {size}"
                for key, b in sheet.buttons.items():
                    problems += text_floor_problems(b, f"{where} {key}")
                    problems += label_problems(b, f"{where} {key}")
                    problems += [f"{where} {key}: {lab.text!r} cut to {lab.shown!r}"
                                 for lab in (b.name, b.note) if lab is not None and lab.is_cut()]
                    if b.note is None and game_id != "draw_poker":
                        missing.append(f"{where} {key}")
    assert not problems, "\n".join(problems[:40])
    assert not missing, f"descriptions left out: {missing}"
