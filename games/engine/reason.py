"""Why a move is refused, as a value: a message id with parameters, not a finished sentence.

The engine must not speak one language only, and a UI must not parse English back to
translate it. So a game's :meth:`~games.engine.game.Game.explain` returns a :class:`Reason`:
its ``msgid`` is the English template, the standard gettext key that translators see in
the ``.po`` catalogs (``"The {card} can only go on {target:a}."``), and its parameters are
typed values (:class:`Card`, :class:`Rank`, :class:`Suit`, :class:`GameName`, numbers,
nested reasons, :class:`Either`). ``str(reason)`` renders the English sentence the CLI,
the logs and :class:`~games.engine.model.IllegalMove` print; a UI renders the same value through
its own catalogs, where cards and ranks become the signs every visitor reads (``J♠``).

A format spec in an English template picks the English form of a value (``{rank:a}`` ->
"an ace", ``{card:name}`` -> "jack of spades"); translations write plain ``{rank}``.

>>> str(Reason("Only {rank:a} can start a foundation.", rank=Rank(8)))
'Only an 8 can start a foundation.'
"""

from __future__ import annotations

import string
from typing import Any

from . import cards as C
from .game_texts import texts


class Card(int):
    """A card code. English specs: ``""`` the sign (``J♠``), ``the`` (``the J♠``), ``name``
    (``jack of spades``), ``a`` (``a jack of spades``)."""

    def english(self, spec: str) -> str:
        if spec == "the":
            return "the " + C.pretty(self)
        if spec in ("name", "a"):
            word = C.rank_word(C.RANK[self])
            name = f"{word} of {C.SUIT_NAMES[C.SUIT[self]]}"
            return f"{C.article(word)} {name}" if spec == "a" else name
        return C.pretty(self)

    def sign(self) -> str:
        return C.pretty(self)


class Rank(int):
    """A rank 1..13; English specs: ``""`` the word (``ace``, ``8``), ``a`` with its article."""

    def english(self, spec: str) -> str:
        word = C.rank_word(self)
        return f"{C.article(word)} {word}" if spec == "a" else word

    def sign(self) -> str:
        return "10" if self == 10 else C.RANKS[self - 1]


class Suit(int):
    """A suit 0..3; English specs: ``""`` the plural (``hearts``), ``one`` (``heart``)."""

    def english(self, spec: str) -> str:
        word = C.SUIT_NAMES[self]
        return word[:-1] if spec == "one" else word

    def sign(self) -> str:
        return C.SUIT_SYMBOLS[self]


class GameName(str):
    """A game's id; shown as the game's name in the reader's language (read from the game's
    text file, as the game's own ``info.names`` is, so no game class is needed)."""

    def english(self, spec: str) -> str:
        return texts(self).names["en"]


class Either(tuple):
    """Alternatives joined by "or" (msgid ``"{a} or {b}"`` in the catalogs).

    English shares what it can, as a speaker would: with the ``a`` spec only the first item
    takes the article ("a 6 or 4"), and cards of one suit name it once ("a 6 or 4 of
    hearts"); other specs apply to every item ("the 3♠ or the J♥")."""

    OR = "{a} or {b}"

    def __new__(cls, *items: Any) -> Either:
        return super().__new__(cls, items)

    def english(self, spec: str) -> str:
        if spec == "a" and len(self) > 1:
            if all(isinstance(i, Card) for i in self) and len({C.SUIT[i] for i in self}) == 1:
                ranks = Either(*(Rank(C.RANK[i]) for i in self)).english("a")
                return f"{ranks} of {C.SUIT_NAMES[C.SUIT[self[0]]]}"
            return " or ".join([english(self[0], "a"), *(english(i) for i in self[1:])])
        return " or ".join(english(item, spec) for item in self)


def english(value: Any, spec: str = "") -> str:
    """The English form of one parameter value."""
    if hasattr(value, "english"):
        return value.english(spec)
    if isinstance(value, Reason):
        return str(value)
    return format(value, spec)


class _English(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        return english(value, format_spec)


_ENGLISH = _English()


class Reason:
    """Why a move is refused: ``msgid`` (the English template) and its parameters.

    Immutable and hashable, compared by value; also used as a phrase inside another reason
    (``target=Reason("a {colour} {rank}", ...)``)."""

    __slots__ = ("msgid", "params")
    msgid: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, msgid: str, **params: Any) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", tuple(sorted(params.items())))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Reason cannot change")

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self.params)

    def __str__(self) -> str:
        return _ENGLISH.format(self.msgid, **self.fields)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params)
        return f"Reason({self.msgid!r}{args})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Reason):
            return (self.msgid, self.params) == (other.msgid, other.params)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.msgid, self.params))

    def __reduce__(self):  # copy and pickle, though __slots__ and __setattr__ are custom
        return (_rebuild, (self.msgid, self.params))


def _rebuild(msgid: str, params: tuple[tuple[str, Any], ...]) -> Reason:
    return Reason(msgid, **dict(params))


def fill(template: str, **words: str) -> str:
    """``template`` with some fields replaced by fixed English words, the others kept.

    For sentences that name a kind of pile ("Cards cannot go from a {src} to a {dst}."):
    the pile words become part of the msgid, so translators see whole sentences and can
    inflect the words as their grammar needs (Russian has six cases)."""
    for key, word in words.items():
        template = template.replace("{" + key + "}", word)
    return template
