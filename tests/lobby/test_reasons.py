"""Refusal reasons as values: the engine's Reason, its English, and the kiosk's translations."""

from __future__ import annotations

import importlib.util
import pickle
import random
import re
import string
from pathlib import Path

import pytest

import games
from games import IllegalMove, Move
from games.engine.cards import card, parse
from games.engine.reason import Card, Either, GameName, Rank, Reason, Suit
from kiosk.i18n import REASONS, catalog, translate, translate_parts

REPO = Path(__file__).resolve().parents[2]


def _messages():
    spec = importlib.util.spec_from_file_location("messages", REPO / "tools/messages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fields(text: str) -> set[str]:
    """Field names of a template, without the English-only format specs."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.fixture(scope="module")
def reason_ids() -> set[str]:
    return _messages().reason_msgids()


def test_the_registry_finds_the_reasons_of_source_and_of_rules(reason_ids):
    assert "Only cards one rank higher or lower can go on the discard pile." in reason_ids
    assert "The {card} can only go on {target:a}." in reason_ids        # patience.ONLY_ON
    assert "Cards cannot go from a foundation to a foundation." in reason_ids  # from rules
    assert "Only a king can go into an empty column." in reason_ids
    assert "That is not a move in {game}." in reason_ids
    assert Either.OR in reason_ids


@pytest.mark.parametrize("lang", ["zh", "ru"])
def test_every_reason_id_has_a_translation_with_the_same_fields(lang, reason_ids):
    cat = catalog(lang, REASONS)
    missing = sorted(m for m in reason_ids if not cat.get(m))
    assert not missing, f"{lang}: {len(missing)} reasons untranslated, e.g. {missing[:5]}"
    for msgid in reason_ids:
        bare = {f.split(":")[0] for f in fields(msgid)}
        assert fields(cat[msgid]) == bare, (lang, msgid, cat[msgid])


def test_english_rendering_is_the_engines_sentence():
    target = Reason("a black {rank}", rank=Either(Rank(8)))
    assert str(Reason("The {card} can only go on {target:a}.", card=Card(parse("7D")),
                      target=target)) == "The 7♦ can only go on a black 8."
    assert str(Reason("Only {rank:a} can start a foundation.", rank=Rank(1))) == \
        "Only an ace can start a foundation."
    hearts = Either(Card(card(6, 2)), Card(card(4, 2)))
    assert str(Reason("The {card} can only go on {target:a}.", card=Card(card(5, 2)),
                      target=hearts)) == "The 5♥ can only go on a 6 or 4 of hearts."
    gap = Either(Card(parse("3S")), Reason("any {rank}", rank=Rank(1)))
    assert str(Reason("That gap takes only {cards:the}, not the {card}.", cards=gap,
                      card=Card(parse("9C")))) == "That gap takes only the 3♠ or any ace, not the 9♣."
    assert str(Reason("The {card} can be discarded only when a higher {suit:one} is on top of "
                      "another pile.", card=Card(parse("2H")), suit=Suit(2))).endswith(
        "higher heart is on top of another pile.")
    assert str(Reason("That is not a move in {game}.", game=GameName("golf"))) == \
        "That is not a move in Golf."


def test_a_reason_is_a_value():
    a = Reason("These cards add up to {n}, not 15.", n=14)
    assert a == Reason("These cards add up to {n}, not 15.", n=14) != Reason(a.msgid, n=13)
    assert len({a, Reason(a.msgid, n=14)}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.msgid = "x"


def test_illegal_move_carries_the_value_and_the_english_text():
    g = games.new("golf", 7)
    bad = next(Move("move", t, g.waste) for t in g.tableau if Move("move", t, g.waste)
               not in g.legal_moves())
    with pytest.raises(IllegalMove) as err:
        g.play(bad)
    assert isinstance(err.value.reason, Reason)
    assert str(err.value) == str(err.value.reason) == g.why_illegal(bad).__str__()


def _r(msgid: str, **params) -> Reason:
    return Reason(msgid, **params)


ONLY_ON = "The {card} can only go on {target:a}."


@pytest.mark.parametrize(("reason", "zh", "ru"), [
    (_r(ONLY_ON, card=Card(parse("TH")), target=Either(Card(parse("JS")))),
     "10♥ 只能放在 J♠ 上。", "10♥ можно положить только на J♠."),
    (_r(ONLY_ON, card=Card(parse("3H")), target=_r("a black {rank}", rank=Either(Rank(4)))),
     "3♥ 只能放在 黑色的 4 上。", "3♥ можно положить только на чёрную 4."),
    (_r(ONLY_ON, card=Card(parse("5H")), target=Either(Card(parse("6H")), Card(parse("4H")))),
     "5♥ 只能放在 6♥ 或 4♥ 上。", "5♥ можно положить только на 6♥ или 4♥."),
    (_r("Only {rank:a} can start a foundation.", rank=Rank(8)), "只有 8 才能开始一个收牌堆。",
     "Базу можно начать только с 8."),
    (_r("That foundation needs the {card:name} next.", card=Card(parse("JC"))),
     "那个收牌堆下一张需要 J♣。", "На эту базу следующей нужна J♣."),
    (_r("That is not a move in {game}.", game=GameName("clock")), "“时钟”里没有这样的走法。",
     "В игре «Часы» так ходить нельзя."),
    (_r("The stock is empty."), "牌库已经空了。", "Колода пуста."),
])
def test_sentences(reason, zh, ru):
    assert translate(reason, "zh") == zh
    assert translate(reason, "ru") == ru
    assert translate(reason, "en") == str(reason)


def test_unknown_reasons_stay_english():
    moon = Reason("The moon is made of {what}.", what="cheese")
    assert translate(moon, "ru") == "The moon is made of cheese."
    assert translate("The moon is made of cheese.", "zh") == "The moon is made of cheese."


def test_the_play_logs_status_is_translated_with_its_numbers():
    parts = ("The memory card is full, so the play log cannot write.",
             Reason("{n} game(s) kept in memory until it can write.", n=3))
    assert translate_parts(parts, "ru") == ("Карта памяти заполнена, журнал игр не может "
                                            "записывать. Партий в памяти до возможности "
                                            "записи: 3.")
    low = Reason("The memory card has less than {n} MB free, so the play log is paused.", n="50")
    assert "50" in translate(low, "zh") and translate(low, "zh") != str(low)


def test_back_end_sentences_are_translated_sentence_by_sentence():
    text = "The memory card is full, so the play log cannot write. It will try again."
    assert translate(text, "ru") == ("Карта памяти заполнена, журнал игр не может записывать. "
                                     "Будет ещё попытка.")
    assert "Unknown part." in translate("The USB stick is full. Unknown part.", "zh")


def _refusals(game_id: str, rnd: random.Random) -> set[Reason]:
    out = set()
    g = games.new(game_id, rnd.randint(1, 9999))
    for _ in range(25):
        n = len(g.layout)
        for _ in range(25):
            s, d = rnd.randrange(n), rnd.randrange(n)
            for m in (Move("move", s, d, 1), Move("deal")):
                reason = g.why_illegal(m)
                if reason is not None:
                    out.add(reason)
        legal = g.legal_moves()
        if not legal or g.won:
            break
        g.play(rnd.choice(legal))
    return out


def test_every_refusal_of_random_games_is_translated():
    """The engine's refusals along random games of every game: each is a Reason whose msgid
    the registry knows, and each comes out translated, with no placeholder left in it."""
    rnd = random.Random(4)
    seen: set[Reason] = set()
    for game_id in games.ids():
        seen |= _refusals(game_id, rnd)
    known = _messages().reason_msgids()
    assert len(seen) > 100
    for reason in seen:
        assert isinstance(reason, Reason) and reason.msgid in known, reason
        for lang in ("zh", "ru"):
            text = translate(reason, lang)
            assert text != str(reason), (reason, lang)
            assert not re.search(r"\{\w+(:\w+)?\}", text), (reason, lang, text)
