"""Every game has a name of its own in every language (GAMES.md §F3: 三叶草 is La Belle
Lucie, and Trefoil was called 三叶草 too), and a description that names another game in
quotes names exactly one."""

from __future__ import annotations

import re

import games
from games.engine import game_texts
from games.engine.game_texts import LANGUAGES

#: quoted words in a description: “…” 「…」 «…» "…"
QUOTED = re.compile(r"[“「«\"]([^”」»\"]+)[”」»\"]")


def _names(lang: str) -> dict[str, str]:
    return {gid: game_texts.texts(gid).names[lang] for gid in games.ids()}


def main_name(name: str) -> str:
    """The name without what its brackets add ("三叶草（美丽的露西）" is 三叶草)."""
    return re.split(r"\s*[（(]", name, maxsplit=1)[0].strip().casefold()


def test_every_game_has_a_name_of_its_own_in_every_language():
    for lang in LANGUAGES:
        seen: dict[str, str] = {}
        for gid, name in _names(lang).items():
            for key in {name.strip().casefold(), main_name(name)}:
                assert key not in seen, f"[{lang}] {gid} and {seen[key]} are both {key!r}"
                seen[key] = gid


def test_a_description_that_quotes_a_game_name_means_one_game():
    for lang in LANGUAGES:
        names = _names(lang)
        for gid in games.ids():
            text = game_texts.texts(gid).description[lang]
            for quoted in QUOTED.findall(text):
                q = quoted.strip().casefold()
                meant = sorted(g for g, n in names.items()
                               if q in (n.strip().casefold(), main_name(n)))
                assert len(meant) <= 1, f"[{lang}] {gid}: {quoted!r} names {meant}"
