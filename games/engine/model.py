"""Value types shared by every game: moves, pile declarations, options and metadata."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import GameError
from .game_texts import GameTexts, texts


class IllegalMove(GameError):
    """A move the rules forbid. ``str(err)`` is the English sentence; ``err.reason`` is the
    :class:`~games.engine.reason.Reason` value a UI translates."""

    def __init__(self, reason: Any) -> None:
        super().__init__(str(reason))
        self.reason = reason


class Move(NamedTuple):
    """One player action, as data.

    ``kind`` is ``"move"`` for lifting ``n`` cards from pile ``src`` onto pile ``dst``;
    other kinds (``"deal"``, ``"redeal"``, ``"remove"``, ``"slide"`` ...) are named by the
    game, with the piles they touch in ``src``/``dst`` or ``extra``. Text notation is made
    by :meth:`games.engine.game.Game.notation` because it needs the game's pile names.
    """

    kind: str
    src: int = -1
    dst: int = -1
    n: int = 1
    extra: tuple[int, ...] = ()


def move(src: int, dst: int, n: int = 1) -> Move:
    return Move("move", src, dst, n)


#: turning or dealing from the stock, and turning the waste over: moves that name no pile,
#: shared so that every game lists (and a solver compares) the same values
DEAL = Move("deal")
REDEAL = Move("redeal")


class Compound(NamedTuple):
    """Several moves a search makes in a row as one step (a compound move).

    Why: some games hide a short forced sequence behind one decision ("turn the stock
    three times, then play the waste card"), and searching it as one child keeps the tree
    small. A named type, not a bare tuple, so a caller (the attract mode, a hint) can tell
    it from a :class:`Move` without guessing: ``type(step) is Compound``.
    """

    moves: tuple[Move, ...]


#: Pile roles a UI understands. Anything a UI draws comes from these.
ROLES = (
    "stock", "waste", "foundation", "tableau", "reserve", "cell", "discard", "hand", "grid",
)
#: How a pile shows its cards: stacked (``none``), fanned downwards or to the right.
FANS = ("none", "down", "right")


@dataclass(frozen=True, slots=True)
class PileSpec:
    """Where a pile sits on the table and what it is for.

    ``x`` and ``y`` give the top-left corner of the pile's first card in card widths on an
    abstract grid; a card is 1 wide and 1.4 tall, so a second row of cards starts at about
    y = 1.6. A fanned pile grows from there (down or right) and a UI squeezes the fan to fit
    the screen. ``label`` is an optional short text a UI may print on an empty pile ("A").
    """

    id: str
    role: str
    x: float
    y: float
    fan: str = "none"
    label: str = ""
    autoflip: bool = True

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown pile role {self.role!r}")
        if self.fan not in FANS:
            raise ValueError(f"unknown fan {self.fan!r}")


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option a game takes; ``choices`` limits the values when given."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""

    def check(self, value: Any) -> Any:
        kind = type(self.default)
        if kind is bool:
            if isinstance(value, str):
                low = value.lower()
                if low in ("1", "true", "yes", "on"):
                    value = True
                elif low in ("0", "false", "no", "off"):
                    value = False
            if not isinstance(value, bool):
                raise GameError(f"option {self.name} must be true or false, not {value!r}")
        elif kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise GameError(f"option {self.name} must be a whole number, not {value!r}") from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameError(f"option {self.name} must be a whole number, not {value!r}") from None
        elif kind is str and not isinstance(value, str):
            raise GameError(f"option {self.name} must be text, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise GameError(f"option {self.name} must be one of {allowed}, not {value!r}")
        return value


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Catalog metadata: the game's identity is written here, its texts live in data files.

    ``names``, ``description`` and ``rules`` (keyed by language: ``en``, ``zh``, ``ru``) and
    ``score_label`` come from ``games/texts/<id>.toml`` (see :mod:`games.engine.game_texts`), read
    the first time one is asked for, so translators never edit Python. ``source_game`` is
    left empty when the source names the game in its own script: the text file holds it.
    """

    id: str
    source: str
    decks: int
    kind: str
    source_game: str = ""
    difficulty: int = 2
    score_better: str = "higher"

    @property
    def texts(self) -> GameTexts:
        return texts(self.id)

    @property
    def names(self) -> dict[str, str]:
        return self.texts.names

    @property
    def description(self) -> dict[str, str]:
        return self.texts.description

    @property
    def rules(self) -> dict[str, str]:
        return self.texts.rules

    @property
    def score_label(self) -> str:
        return self.texts.score_label

    @property
    def cited_game(self) -> str:
        """Which game of the source file this is: ``source_game``, or the text file's."""
        return self.source_game or self.texts.source_game

    def to_dict(self, options: tuple[Option, ...]) -> dict[str, Any]:
        return {
            "id": self.id,
            "names": dict(self.names),
            "source": {"file": self.source, "game": self.cited_game},
            "decks": self.decks,
            "kind": self.kind,
            "difficulty": self.difficulty,
            "options": [
                {"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help}
                for o in options
            ],
            "description": dict(self.description),
            "rules": dict(self.rules),
            "how_to_play": dict(self.texts.how_to_play),
            "score": {"label": self.score_label, "better": self.score_better},
        }
