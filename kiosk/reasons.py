"""The engine's sentences (why a move is refused, the play log's status) in the visitor's language.

The engine speaks English and names cards inside its sentences ("The 7♥ can only go on a
black 8."). A catalog entry per sentence would need one per card, so this module keeps a
**pattern table**: each row is a regular expression for one kind of sentence and the
``msgid`` template its translation is filed under in the ``.po`` files
(``"The {card} can only go on {target}."``). Ranks and suits inside a sentence become the
card signs every visitor reads (``a jack of hearts`` -> ``J♥``), so the translations need
no grammar for card names; colours ("a red 9") and "or" have their own small entries.

Order of tries: the catalog's exact sentence, then the table, then each sentence of a
longer text on its own. Whatever is not covered stays in English, as the engine wrote it.

>>> translate("The 10♥ can only go on a jack of spades.", "ru")
'10♥ можно положить только на J♠.'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .i18n import catalog

CARD = r"(?:10|[2-9AJQK])[♣♦♥♠]"
RANK = r"(?:ace|king|queen|jack|10|[2-9])"
SUIT = r"(?:clubs|diamonds|hearts|spades)"
RANK_SIGN = {"ace": "A", "king": "K", "queen": "Q", "jack": "J"}
SUIT_SIGN = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠",
             "club": "♣", "diamond": "♦", "heart": "♥", "spade": "♠"}


def rank(word: str) -> str:
    return RANK_SIGN.get(word, word)


class _Lang:
    """Small pieces in one language (``"red {rank}"``, ``"{a} or {b}"``)."""

    def __init__(self, lang: str) -> None:
        self.cat = catalog(lang)

    def get(self, msgid: str, **fields: str) -> str | None:
        text = self.cat.get(msgid)
        if not text:
            return None
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return None

    def either(self, a: str, b: str) -> str | None:
        return self.get("{a} or {b}", a=a, b=b)


def _target(phrase: str, lang: _Lang) -> str | None:
    """``a jack of hearts`` -> ``J♥``; ``a red 9`` -> (translated) ``red 9``; ``a 6 or 4 of
    spades`` -> ``6♠ or 4♠``; ``a 10`` -> ``10``."""
    phrase = re.sub(r"^an? ", "", phrase)
    m = re.fullmatch(rf"({RANK}) of ({SUIT})", phrase)
    if m:
        return rank(m[1]) + SUIT_SIGN[m[2]]
    m = re.fullmatch(rf"({RANK}) or ({RANK}) of ({SUIT})", phrase)
    if m:
        s = SUIT_SIGN[m[3]]
        return lang.either(rank(m[1]) + s, rank(m[2]) + s)
    m = re.fullmatch(rf"(red|black) ({RANK})", phrase)
    if m:
        return lang.get(f"{m[1]} {{rank}}", rank=rank(m[2]))
    m = re.fullmatch(rf"({RANK}) or ({RANK})", phrase)
    if m:
        return lang.either(rank(m[1]), rank(m[2]))
    m = re.fullmatch(RANK, phrase)
    if m:
        return rank(phrase)
    return None


def _gap_list(phrase: str, lang: _Lang) -> str | None:
    """``the 3♠ or the J♥`` / ``any ace or the 8♣`` -> the cards, joined with "or"."""
    items = []
    for part in phrase.split(" or "):
        part = part.strip()
        m = re.fullmatch(rf"the ({CARD})", part)
        if m:
            items.append(m[1])
            continue
        m = re.fullmatch(rf"any ({RANK})", part)
        if m:
            text = lang.get("any {rank}", rank=rank(m[1]))
            if text is None:
                return None
            items.append(text)
            continue
        return None
    out = items[0]
    for item in items[1:]:
        joined = lang.either(out, item)
        if joined is None:
            return None
        out = joined
    return out


def _game(name: str, lang: str) -> str:
    import games

    for entry in games.catalog():
        names = entry.get("names", {})
        if names.get("en") == name:
            return names.get(lang) or name
    return name


Convert = Callable[[str, _Lang], str | None]
_same: Convert = lambda v, _l: v  # noqa: E731
_rank: Convert = lambda v, _l: rank(v)  # noqa: E731

#: (pattern, msgid template, converters of the named groups)
PATTERNS: list[tuple[re.Pattern[str], str, dict[str, Convert]]] = [
    (re.compile(rf"The (?P<card>{CARD}) can only go on (?P<target>.+)\."),
     "The {card} can only go on {target}.", {"target": _target}),
    (re.compile(rf"Only an? (?P<rank>{RANK}) can start a foundation\."),
     "Only a {rank} can start a foundation.", {"rank": _rank}),
    (re.compile(rf"Only an? (?P<rank>{RANK}) can start a foundation in an empty corner\."),
     "Only a {rank} can start a foundation in an empty corner.", {"rank": _rank}),
    (re.compile(rf"Only a card of the base rank \((?P<rank>{RANK})\) can start a foundation\."),
     "Only a card of the base rank ({rank}) can start a foundation.", {"rank": _rank}),
    (re.compile(rf"Only an? (?P<rank>{RANK}) can start this foundation\."),
     "Only a {rank} can start this foundation.", {"rank": _rank}),
    (re.compile(rf"Only the (?P<rank>{RANK}) of (?P<suit>{SUIT}) can start this pile\."),
     "Only the {card} can start this pile.", {}),
    (re.compile(rf"Only an? (?P<rank>{RANK}) can go into an empty fan\."),
     "Only a {rank} can go into an empty fan.", {"rank": _rank}),
    (re.compile(rf"Only an? (?P<rank>{RANK}) can go into an empty column\."),
     "Only a {rank} can go into an empty column.", {"rank": _rank}),
    (re.compile(rf"The (?P<card>{CARD}) cannot be placed on another card there\."),
     "The {card} cannot be placed on another card there.", {}),
    (re.compile(rf"The (?P<card>{CARD}) and the (?P<card2>{CARD}) still make a pair: deal only "
                r"when no touching cards match\."),
     "The {card} and the {card2} still make a pair: deal only when no touching cards match.",
     {}),
    (re.compile(rf"The (?P<card>{CARD}) fits a foundation, so it must go there\."),
     "The {card} fits a foundation, so it must go there.", {}),
    (re.compile(rf"That foundation needs the (?P<rank>{RANK}) of (?P<suit>{SUIT}) next\."),
     "That foundation needs the {card} next.", {}),
    (re.compile(rf"That gap takes only (?P<cards>.+), not the (?P<card>{CARD})\."),
     "That gap takes only {cards}, not the {card}.", {"cards": _gap_list}),
    (re.compile(rf"The (?P<card>{CARD}) can be discarded only when a higher "
                r"(?P<suit>club|diamond|heart|spade) is on top of another pile\."),
     "The {card} can be discarded only when a higher {suit} is on top of another pile.",
     {"suit": lambda v, _l: SUIT_SIGN[v]}),
    (re.compile(rf"Cards on an? (?P<rank>{RANK}) foundation cannot be moved\."),
     "Cards on a {rank} foundation cannot be moved.", {"rank": _rank}),
    (re.compile(rf"Foundations are started from left to right: the next empty slot takes an? "
                rf"(?P<rank>{RANK})\."),
     "Foundations are started from left to right: the next empty slot takes a {rank}.",
     {"rank": _rank}),
    (re.compile(r"A fan can hold at most (?P<n>\d+) cards\."),
     "A fan can hold at most {n} cards.", {}),
    (re.compile(r"A foundation can hold at most (?P<n>\d+) cards\."),
     "A foundation can hold at most {n} cards.", {}),
    (re.compile(r"A column may never hold more than (?P<n>\d+) cards\."),
     "A column may never hold more than {n} cards.", {}),
    (re.compile(r"The turned row already holds (?P<n>\d+) cards: pair some of them first\."),
     "The turned row already holds {n} cards: pair some of them first.", {}),
    (re.compile(r"The cards move by themselves in Clock: tap the (?P<n>\d+) o'clock pile to "
                r"turn its next card\."),
     "The cards move by themselves in Clock: tap the {n} o'clock pile to turn its next card.",
     {}),
    (re.compile(rf"Nothing can be played on an? (?P<rank>{RANK})\."),
     "Nothing can be played on a {rank}.", {"rank": _rank}),
    (re.compile(rf"Nothing can go just before an? (?P<rank>{RANK})\."),
     "Nothing can go just before a {rank}.", {"rank": _rank}),
    (re.compile(rf"Cards are not moved here: pick two cards that add up to (?P<n>\d+), or an? "
                rf"(?P<rank>{RANK})\."),
     "Cards are not moved here: pick two cards that add up to {n}, or a {rank}.",
     {"rank": _rank}),
    (re.compile(r"Cards are not moved here: remove two cards that add up to (?P<n>\d+)\."),
     "Cards are not moved here: remove two cards that add up to {n}.", {}),
    (re.compile(r"In Bagua cards are not moved: remove two edge cards that add up to "
                r"(?P<a>\d+) or (?P<b>\d+)\."),
     "In Bagua cards are not moved: remove two edge cards that add up to {a} or {b}.", {}),
    (re.compile(rf"Cards reach a finished pile only as a complete run from (?P<hi>{RANK}) down "
                rf"to (?P<lo>{RANK})\."),
     "Cards reach a finished pile only as a complete run from {hi} down to {lo}.",
     {"hi": _rank, "lo": _rank}),
    (re.compile(rf"Cards are not moved: remove same-suit cards adding up to (?P<n>\d+), or an? "
                rf"(?P<a>{RANK}), (?P<b>{RANK}) and (?P<c>{RANK})\."),
     "Cards are not moved: remove same-suit cards adding up to {n}, or a {a}, {b} and {c}.",
     {"a": _rank, "b": _rank, "c": _rank}),
    (re.compile(rf"The game is over: the fourth (?P<rank>{RANK}) has come up\."),
     "The game is over: the fourth {rank} has come up.", {"rank": _rank}),
    (re.compile(r"That is not a move in (?P<game>.+)\."),
     "That is not a move in {game}.", {}),
    # the play log's status (kiosk.playlog.LogStatus.message)
    (re.compile(r"(?P<n>\d+) games? kept in memory until it can write\."),
     "{n} game(s) kept in memory until it can write.", {}),
    (re.compile(r"The memory card has less than (?P<n>[\d.]+) MB free, so the play log is "
                r"paused\."),
     "The memory card has less than {n} MB free, so the play log is paused.", {}),
]


def _by_pattern(text: str, lang: str, pieces: _Lang) -> str | None:
    for pattern, msgid, converters in PATTERNS:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        fields = dict(m.groupdict())
        if "suit" in fields and "rank" in fields and "card" not in fields:
            fields["card"] = rank(fields["rank"]) + SUIT_SIGN[fields["suit"]]
        if "game" in fields:
            fields["game"] = _game(fields["game"], lang)
        for name, convert in converters.items():
            value = convert(fields[name], pieces)
            if value is None:
                return None
            fields[name] = value
        return pieces.get(msgid, **fields)
    return None


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def translate(text: str, lang: str) -> str:
    """``text`` in ``lang`` when the catalog or the pattern table covers it, else as is."""
    if not text or lang == "en":
        return text
    cat = catalog(lang)
    exact = cat.get(text)
    if exact:
        return exact
    pieces = _Lang(lang)
    done = _by_pattern(text, lang, pieces)
    if done is not None:
        return done
    parts = _SENTENCE_END.split(text)
    if len(parts) < 2:
        return text
    out = [cat.get(p) or _by_pattern(p, lang, pieces) or p for p in parts]
    return ("" if lang == "zh" else " ").join(out)


def covered(text: str, lang: str) -> bool:
    """Whether :func:`translate` gives more than the English text (for the tests)."""
    return translate(text, lang) != text
