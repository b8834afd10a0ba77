"""Each game's level sheet describes that game's computer player: Follow the Rules' and
Draw Poker's levels no longer tell the visitor about Gin ("it watches what you pick up"),
and every level's words are in the three catalogs."""

from __future__ import annotations

import pytest

from kiosk.i18n import LANGUAGES, catalog
from kiosk.settings.variants import level_variants, levels_beside

SEATED = ("gin_rummy", "follow_the_rules", "draw_poker")


def notes(game_id: str) -> dict[str, str]:
    levels = level_variants(game_id) or levels_beside(game_id)
    return {v.key: v.note for v in levels}


def test_each_game_describes_its_own_players():
    assert "pick up" in notes("gin_rummy")["normal"]
    trick, poker = notes("follow_the_rules"), notes("draw_poker")
    assert not any("pick up" in n for n in (*trick.values(), *poker.values()))
    assert "tricks" in trick["normal"] and "bet" in poker["normal"]
    assert len({notes(g)["normal"] for g in SEATED}) == 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_level_text_is_translated(lang):
    from games.players import LEVEL_TEXTS

    cat = catalog(lang)
    for game_id in SEATED:
        for level, text in notes(game_id).items():
            assert text == LEVEL_TEXTS[game_id][level]
            assert cat.get(text), (lang, game_id, level)
