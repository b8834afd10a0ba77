"""The games' texts are data (games/texts/<id>.toml): complete in every language, shared
between variants by reference, out of the Python files, and a broken file is named."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

import games
from games.engine import game_texts
from games.engine.game_texts import LANGUAGES, GameTextError, load
from games.families import poker

GAMES_DIR = Path(games.__file__).parent
TEXTS_DIR = GAMES_DIR / "texts"
#: scripts a translation is written in, by language (a copy of the English would pass the
#: "not empty" test but not this one)
SCRIPT = {"zh": "CJK UNIFIED", "ru": "CYRILLIC"}


def foreign(ch: str) -> bool:
    """A Chinese, Japanese or Korean character, CJK punctuation or a Cyrillic letter."""
    if "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef":
        return True
    return unicodedata.name(ch, "").startswith(("CYRILLIC", "CJK"))


def test_no_python_file_under_games_holds_chinese_or_cyrillic_text():
    found = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(foreign(ch) for ch in line):
                found.append(f"{path.relative_to(GAMES_DIR.parent)}:{number}")
    assert not found, f"texts belong in games/texts/: {found[:10]}"


def test_every_game_has_every_text_in_its_own_language(game_id):
    info = games.game_class(game_id).info
    for lang in LANGUAGES:
        for field in ("names", "description", "rules"):
            text = getattr(info, field)[lang]
            assert text.strip() and text == text.strip(), (game_id, lang, field)
            assert "{{" not in text and "}}" not in text, (game_id, lang, field)
            if lang in SCRIPT:
                assert any(unicodedata.name(ch, "").startswith(SCRIPT[lang]) for ch in text), \
                    f"{game_id}: the {lang} {field} is not in {lang}"
    assert info.score_label.strip()
    assert info.to_dict(games.game_class(game_id).options)["source"]["game"].strip()


def test_every_game_against_the_computer_says_how_to_play_a_hand(game_id):
    """The hand tables' Rules sheet starts with it (issue 34): in every language, in its
    own script, and short beside the rules; a solitaire has none (its sheet is the rules)."""
    how = games.game_class(game_id).info.texts.how_to_play
    if not games.listed(game_id).seated:
        assert how == {}, game_id
        return
    rules = games.game_class(game_id).info.rules
    for lang in LANGUAGES:
        text = how[lang].strip()
        assert text and len(text) < len(rules[lang]) * 0.6, (game_id, lang)
        if lang in SCRIPT:
            assert any(unicodedata.name(ch, "").startswith(SCRIPT[lang]) for ch in text)
    assert games.summary(game_id)["how_to_play"] == how


def test_there_is_one_text_file_per_game_and_no_other():
    assert sorted(p.stem for p in TEXTS_DIR.glob("*.toml")) == games.ids()


def test_variants_borrow_their_base_games_paragraphs_instead_of_copying_them():
    """A long paragraph written out in two files is a copy that will drift: the second file
    should name it ({{game.key}}). Checked on the files as written, before expansion."""
    seen: dict[tuple[str, str], str] = {}
    copies = []
    for path in sorted(TEXTS_DIR.glob("*.toml")):
        raw = game_texts._read(path.stem, TEXTS_DIR)
        for lang in LANGUAGES:
            written = [raw.tables[lang]["rules"], *raw.paragraphs[lang].values()]
            for line in "\n".join(written).split("\n"):
                if len(line) < 100:
                    continue
                first = seen.setdefault((lang, line), path.stem)
                if first != path.stem:
                    copies.append(f"{path.stem} copies {first} ({lang}): {line[:50]}")
    assert not copies, copies


def test_the_families_share_their_rules_by_reference():
    for variant, base in (("selective_canfield", "canfield"), ("trefoil", "la_belle_lucie"),
                          ("citadel", "beleaguered_castle"), ("pyramid_pairs", "pyramid")):
        text = (TEXTS_DIR / f"{variant}.toml").read_text(encoding="utf-8")
        for lang in LANGUAGES:
            section = text.split(f"\n[{lang}]\n")[1].split("\n[")[0]
            assert "{{" + base + "." in section, (variant, lang)
    castle = games.game_class("beleaguered_castle").info.rules
    for game_id in ("citadel", "streets_and_alleys"):
        for lang in LANGUAGES:
            play = game_texts._read("beleaguered_castle", TEXTS_DIR).paragraphs[lang]["play"]
            assert play in castle[lang] and play in games.game_class(game_id).info.rules[lang]


def test_poker_squares_rules_show_the_points_the_game_scores():
    """The hand table in the rules is text now: it must still match the scoring tables."""
    rules = games.game_class("poker_squares").info.rules
    hands = (poker.ROYAL_FLUSH, poker.STRAIGHT_FLUSH, poker.FOUR_OF_A_KIND, poker.FULL_HOUSE,
             poker.FLUSH, poker.STRAIGHT, poker.THREE_OF_A_KIND, poker.TWO_PAIR, poker.ONE_PAIR,
             poker.HIGH_CARD)
    for lang in LANGUAGES:
        table = [line for line in rules[lang].split("\n") if line.startswith("  ")]
        shown = [tuple(int(n) for n in re.findall(r"(\d+) / (\d+)$", line)[0]) for line in table]
        assert shown == [(poker.AMERICAN[h], poker.ENGLISH[h]) for h in hands], lang


# --- reading the files: what a translator's mistake looks like -----------------------------

GOOD = {lang: f'[{lang}]\nname = "N {lang}"\ndescription = "D {lang}"\nrules = "R {lang}"\n'
        for lang in LANGUAGES}


def write(root: Path, game_id: str, *, top: str = 'score_label = "points"\n',
          **tables: str) -> None:
    body = top + "".join(tables.get(lang, GOOD[lang]) for lang in LANGUAGES)
    (root / f"{game_id}.toml").write_text(body, encoding="utf-8")


def test_a_good_file_reads_and_references_expand(tmp_path):
    write(tmp_path, "base", en='[en]\nname = "Base"\ndescription = "d"\n'
          'rules = "Goal.\\n{{play}}"\n[en.paragraphs]\nplay = "Play: {{tip}}"\n'
          'tip = "tap."\n')
    write(tmp_path, "variant", top='score_label = "moves"\nsource_game = "Змей"\n',
          en='[en]\nname = "Variant"\ndescription = "d"\nrules = "Other.\\n{{base.play}}"\n')
    texts = load("variant", tmp_path)
    assert texts.rules["en"] == "Other.\nPlay: tap."
    assert texts.rules["zh"] == "R zh" and texts.names["ru"] == "N ru"
    assert texts.score_label == "moves" and texts.source_game == "Змей"
    assert load("base", tmp_path).rules["en"] == "Goal.\nPlay: tap."


@pytest.mark.parametrize(("top", "tables", "expected"), [
    ('score_label = "points"\n[en\n', {}, r"golf.toml is not valid TOML: .*line 2"),
    ('score_label = "points"\n', {"ru": ""}, r"golf.toml: no \[ru\] table"),
    ('score_label = "points"\n', {"zh": '[zh]\nname = "N"\nrules = "R"\n'},
     r"golf.toml: \[zh\] has no 'description'"),
    ('score_label = "points"\n', {"en": '[en]\nname = ""\ndescription = "d"\nrules = "r"\n'},
     r"golf.toml: \[en\] name is empty"),
    ('score_label = "points"\n', {"en": '[en]\nname = 3\ndescription = "d"\nrules = "r"\n'},
     r"golf.toml: \[en\] name must be a string, not int"),
    ('score_label = "points"\n',
     {"en": '[en]\nname = "n"\ndescripton = "d"\ndescription = "d"\nrules = "r"\n'},
     r"golf.toml: \[en\] has an unknown key 'descripton'"),
    ('scor_label = "points"\n', {}, r"golf.toml: unknown top-level key 'scor_label'"),
    ("", {}, r"golf.toml: no score_label"),
    ('score_label = "points"\n', {"ru": '[ru]\nname = "n"\ndescription = "d"\n'
                                         'rules = "{{missing}}"\n'},
     r"golf.toml: \[ru\] rules: \{\{missing\}\} names no paragraph: .*golf.toml has no"),
    ('score_label = "points"\n', {"ru": '[ru]\nname = "n"\ndescription = "d"\n'
                                         'rules = "{{nogame.play}}"\n'},
     r"games/texts/nogame.toml is missing"),
    ('score_label = "points"\n', {"en": '[en]\nname = "n"\ndescription = "d"\n'
                                         'rules = "{{a}}"\n[en.paragraphs]\na = "{{b}}"\n'
                                         'b = "x {{a}}"\n'},
     r"golf.toml: \[en\] paragraph b: paragraph golf.a includes itself"),
    ('score_label = "points"\n', {"en": '[en]\nname = "n"\ndescription = "d"\n'
                                         'rules = "{{ two words }}"\n'},
     r"is not a paragraph reference"),
    ('score_label = "points"\n', {"en": '[en]\nname = "n"\ndescription = "d"\n'
                                         'rules = "{{play"\n'},
     r"golf.toml: \[en\] rules: unmatched"),
    ('score_label = "points"\n', {"en": '[en]\nname = "n"\ndescription = "d"\n'
                                         'rules = "r"\nhow_to_play = "Tap."\n'},
     r"golf.toml: \[zh\] has no 'how_to_play' \(the other languages give it"),
])
def test_a_malformed_file_is_named_with_what_is_wrong(tmp_path, top, tables, expected):
    write(tmp_path, "golf", top=top, **tables)
    with pytest.raises(GameTextError, match=expected) as err:
        load("golf", tmp_path)
    assert "games/texts/" in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, games.GameError)  # the command line prints it, exit 2


def test_a_missing_file_or_bad_bytes_are_named(tmp_path):
    with pytest.raises(GameTextError, match=r"games/texts/golf.toml is missing"):
        load("golf", tmp_path)
    (tmp_path / "golf.toml").write_bytes(b'score_label = "\xff"\n')
    with pytest.raises(GameTextError, match=r"games/texts/golf.toml is not UTF-8"):
        load("golf", tmp_path)
