"""The game class behind each search mixin, for the type checker only.

A mixin's hooks run with the game as ``self`` (:func:`games.search.search_class` builds
``Mixin + GameClass``), so they read the game's own piles and rules (``self.tableau``,
``self.rule``...). A mixin names its game here as its last base, ``class
GolfSearch(Search, GolfRules)``: for the checker ``GolfRules`` is the game class, so every
such read is checked; at run time every name here is ``object``, so the classes that run
are exactly what ``search_class`` builds and no game module is imported from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = [
    "AccordionRules", "AcesUpRules", "BaguaRules", "BisleyRules", "CanfieldRules",
    "CastleGameRules", "CellGameRules", "FlorentineRules", "FourCornerTowersRules",
    "FridayTheThirteenthRules", "GolfRules", "GrandPianoFragmentRules", "KingAlbertRules",
    "KlondikeRules", "LaBelleLucieRules", "LeapfrogRules", "MakeTenRules", "MazeRules",
    "NapoleonsTombRules", "OpenPatienceRules", "PairsEightPilesRules", "PatienceGameRules",
    "PokerSquaresRules", "PussInTheCornerRules", "PyramidRules", "RoyalMarriageRules",
    "ScorpionRules", "SelectiveCanfieldRules", "ShamrocksRules", "SlidingElevenRules",
    "SnakeRules", "StHelenaSpiderRules", "StarPairsRules", "TakeThreeRules",
]

if TYPE_CHECKING:
    from ..accordion import Accordion as AccordionRules
    from ..aces_up import AcesUp as AcesUpRules
    from ..bagua import Bagua as BaguaRules
    from ..beleaguered_castle import CastleGame as CastleGameRules
    from ..bisley import Bisley as BisleyRules
    from ..canfield import Canfield as CanfieldRules
    from ..families.grid import CellGame as CellGameRules
    from ..families.open_patience import OpenPatience as OpenPatienceRules
    from ..families.patience import PatienceGame as PatienceGameRules
    from ..florentine import Florentine as FlorentineRules
    from ..four_corner_towers import FourCornerTowers as FourCornerTowersRules
    from ..friday_the_thirteenth import FridayTheThirteenth as FridayTheThirteenthRules
    from ..golf import Golf as GolfRules
    from ..grand_piano_fragment import GrandPianoFragment as GrandPianoFragmentRules
    from ..king_albert import KingAlbert as KingAlbertRules
    from ..klondike import Klondike as KlondikeRules
    from ..la_belle_lucie import LaBelleLucie as LaBelleLucieRules
    from ..leapfrog import Leapfrog as LeapfrogRules
    from ..make_ten import MakeTen as MakeTenRules
    from ..maze import Maze as MazeRules
    from ..napoleons_tomb import NapoleonsTomb as NapoleonsTombRules
    from ..pairs_eight_piles import PairsEightPiles as PairsEightPilesRules
    from ..poker_squares import PokerSquares as PokerSquaresRules
    from ..puss_in_the_corner import PussInTheCorner as PussInTheCornerRules
    from ..pyramid import Pyramid as PyramidRules
    from ..royal_marriage import RoyalMarriage as RoyalMarriageRules
    from ..scorpion import Scorpion as ScorpionRules
    from ..selective_canfield import SelectiveCanfield as SelectiveCanfieldRules
    from ..shamrocks import Shamrocks as ShamrocksRules
    from ..sliding_eleven import SlidingEleven as SlidingElevenRules
    from ..snake import Snake as SnakeRules
    from ..st_helena_spider import StHelenaSpider as StHelenaSpiderRules
    from ..star_pairs import StarPairs as StarPairsRules
    from ..take_three import TakeThree as TakeThreeRules
else:
    def __getattr__(name: str) -> type:
        """Every name of ``__all__`` is ``object`` at run time (see above)."""
        if name in __all__:
            return object
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
