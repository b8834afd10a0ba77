"""What the kiosk needs to list a game before it is played: its id, difficulty and whether it
is played against the computer.

The picker and the welcome screen list every game, but a visitor plays a few: importing 44
game modules (and their solver hooks) to draw the first screen cost a Pi a noticeable part of
its start. The registry lists games from here and imports a game's module when the game
itself is first asked for (:func:`games.engine.registry.game_class`). A game module that is missing
here still works (the registry imports it to find out), only slower; ``tests/test_lazy_start.py``
checks every entry against the class it describes, so a new game fails that test until it has
its line.
"""

from __future__ import annotations

from typing import NamedTuple


class Listed(NamedTuple):
    """A game as the picker lists it (the class's :class:`~games.engine.model.GameInfo` says the same)."""

    difficulty: int
    #: a :class:`games.families.seats.SeatedGame` (played against the computer)
    seated: bool = False


#: every game module of the package, by game id (the module is ``games.<id>``)
GAMES: dict[str, Listed] = {
    "accordion": Listed(difficulty=4),
    "aces_up": Listed(difficulty=2),
    "bagua": Listed(difficulty=1),
    "beleaguered_castle": Listed(difficulty=3),
    "bisley": Listed(difficulty=2),
    "canfield": Listed(difficulty=4),
    "citadel": Listed(difficulty=2),
    "clock": Listed(difficulty=1),
    "draw_poker": Listed(difficulty=3, seated=True),
    "eight_off": Listed(difficulty=3),
    "florentine": Listed(difficulty=3),
    "follow_the_rules": Listed(difficulty=3, seated=True),
    "four_corner_towers": Listed(difficulty=2),
    "four_leaf_clover": Listed(difficulty=2),
    "friday_the_thirteenth": Listed(difficulty=1),
    "gin_rummy": Listed(difficulty=3, seated=True),
    "golf": Listed(difficulty=3),
    "grand_piano_fragment": Listed(difficulty=3),
    "happy_couples": Listed(difficulty=1),
    "king_albert": Listed(difficulty=3),
    "klondike": Listed(difficulty=2),
    "la_belle_lucie": Listed(difficulty=4),
    "leapfrog": Listed(difficulty=3),
    "make_ten": Listed(difficulty=3),
    "maze": Listed(difficulty=4),
    "monte_carlo": Listed(difficulty=2),
    "napoleons_tomb": Listed(difficulty=5),
    "pairs_eight_piles": Listed(difficulty=2),
    "poker_squares": Listed(difficulty=2),
    "puss_in_the_corner": Listed(difficulty=2),
    "pyramid": Listed(difficulty=2),
    "pyramid_pairs": Listed(difficulty=2),
    "royal_marriage": Listed(difficulty=1),
    "scorpion": Listed(difficulty=4),
    "selective_canfield": Listed(difficulty=3),
    "shamrocks": Listed(difficulty=3),
    "sliding_eleven": Listed(difficulty=3),
    "snake": Listed(difficulty=4),
    "st_helena_spider": Listed(difficulty=2),
    "star_pairs": Listed(difficulty=1),
    "streets_and_alleys": Listed(difficulty=4),
    "take_three": Listed(difficulty=4),
    "the_fan": Listed(difficulty=4),
    "three_shuffles_and_a_draw": Listed(difficulty=3),
    "trefoil": Listed(difficulty=4),
}
