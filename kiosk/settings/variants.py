"""The named variants a visitor may choose before the deal (the variant sheet).

A game's engine declares its rule options (:class:`games.engine.model.Option`); a *named variant* is
a set of option values under the name players know ("Draw 3, unlimited passes", "Face up"),
as GAMES.md names them. The names are English msgids, translated by the kiosk catalogs.

Which variants the sheet offers and which one is the default is the operator's choice, per
game, in the configuration (``[games.<id>] offer_variants = [...]``, ``default_variant``)
or in the operator menu; without a choice every variant is offered and the default is the
one the game's configured options (or else its engine defaults) name, else the first. A game
with fewer than two variants offered has no sheet: the visitor goes straight to the table.

Games against the computer get their levels here with no code of their own: a
:class:`~games.families.seats.SeatedGame` with a ``level`` option and no named variants has one
variant per level ("Easy", "Normal"), so the visitor chooses how well the computer plays on
the same sheet, and the operator offers levels and picks the default with the same
``offer_variants`` / ``default_variant`` keys and menu rows as any other variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OFFER_KEY = "offer_variants"
DEFAULT_KEY = "default_variant"


@dataclass(frozen=True)
class Variant:
    """One named variant: ``key`` for the configuration, ``name`` and ``note`` (English
    msgids) for the sheet, ``options`` for the engine."""

    key: str
    name: str
    note: str
    options: dict[str, Any] = field(default_factory=dict)


VARIANTS: dict[str, tuple[Variant, ...]] = {
    "klondike": (
        Variant("draw1", "Draw 1", "Turn one card at a time; one pass through the stock.",
                {"draw": 1, "redeals": 0}),
        Variant("draw3", "Draw 3", "Turn three cards at a time; as many passes as you like.",
                {"draw": 3, "redeals": -1}),
        Variant("draw3_three_passes", "Draw 3, three passes",
                "Turn three cards at a time; three passes through the stock.",
                {"draw": 3, "redeals": 2}),
    ),
    "pyramid": (
        Variant("standard", "Classic", "Only the bottom row is dealt face up.",
                {"all_face_up": False}),
        Variant("face_up", "Face up", "The whole pyramid is dealt face up.",
                {"all_face_up": True}),
    ),
    "canfield": (
        Variant("draw3", "Draw 3", "Turn three cards at a time, as often as you like.",
                {"variant": "standard"}),
        Variant("draw1", "Draw 1", "Turn one card at a time.", {"variant": "draw_one"}),
    ),
    "four_corner_towers": (
        Variant("standard", "Classic", "When you are stuck, deal twenty more cards.",
                {"variant": "standard"}),
        Variant("single_turn", "One card at a time",
                "When you are stuck, turn the stock one card at a time.",
                {"variant": "single_turn"}),
    ),
    # how many computer players sit at the table (the engine takes 1 to 7)
    "draw_poker": (
        Variant("1", "1 opponent", "Heads-up: you against one computer player.",
                {"opponents": 1}),
        Variant("2", "2 opponents", "A table of three.", {"opponents": 2}),
        Variant("3", "3 opponents", "A table of four.", {"opponents": 3}),
        Variant("4", "4 opponents", "A table of five.", {"opponents": 4}),
        Variant("5", "5 opponents", "A table of six.", {"opponents": 5}),
        Variant("6", "6 opponents", "A table of seven.", {"opponents": 6}),
        Variant("7", "7 opponents", "A full table of eight.", {"opponents": 7}),
    ),
}


def _(msgid: str) -> str:
    """Marks a msgid for tools/messages.py; the sheet translates it."""
    return msgid


#: the computer levels as the sheet names them (English msgids), by level, with a note for
#: a game whose players have no words of their own (:func:`games.players.level_text`)
LEVELS: dict[str, tuple[str, str]] = {
    "easy": (_("Easy"), _("The computer plays simply and now and then carelessly.")),
    "normal": (_("Normal"), _("The computer plays its best.")),
}


def level_variants(game_id: str) -> tuple[Variant, ...]:
    """One variant per computer level of a game against the computer (none otherwise)."""
    import games
    from games.families.seats import SeatedGame

    if game_id not in games.ids():
        return ()
    cls = games.game_class(game_id)
    level = next((o for o in cls.options if o.name == "level"), None)
    if not issubclass(cls, SeatedGame) or level is None or not level.choices:
        return ()
    from games.players import level_text

    return tuple(Variant(c, LEVELS.get(c, (c.capitalize(), ""))[0],
                         level_text(game_id, c) or LEVELS.get(c, ("", ""))[1], {"level": c})
                 for c in level.choices)


def variants_of(game_id: str) -> tuple[Variant, ...]:
    """Every named variant of ``game_id``: its named variants, else its computer levels
    (none for most games)."""
    return VARIANTS.get(game_id) or level_variants(game_id)


def levels_beside(game_id: str) -> tuple[Variant, ...]:
    """The computer levels of a game against the computer whose sheet already asks another
    question (Draw Poker: how many opponents): the sheet shows them as a row of their own,
    so the visitor chooses both with no extra screen."""
    return level_variants(game_id) if game_id in VARIANTS else ()


def default_level(cfg: Any, game_id: str) -> str | None:
    """The level the sheet's level row starts on: the configured one, else the engine's."""
    return _options(cfg, game_id).get("level") if levels_beside(game_id) else None


def with_variants() -> list[str]:
    """Every game that has variants to offer (the operator menu's rows), the named ones
    first; a game against the computer once the touch table can play it."""
    import games
    from kiosk.settings.tables import table_can_play

    return [*VARIANTS, *(g for g in games.ids() if g not in VARIANTS and level_variants(g)
                         and table_can_play(g))]


def find(game_id: str, key: str) -> Variant | None:
    return next((v for v in variants_of(game_id) if v.key == key), None)


def offered(cfg: Any, game_id: str) -> list[Variant]:
    """The variants the sheet shows for ``game_id``, in the game's order."""
    keys = cfg.variant_offer.get(game_id)
    every = variants_of(game_id)
    return [v for v in every if keys is None or v.key in keys]


def default(cfg: Any, game_id: str) -> Variant | None:
    """The variant a visitor gets without choosing (the operator's default, else the one the
    configured options name, else the first offered; None for a game without variants)."""
    shown = offered(cfg, game_id) or list(variants_of(game_id))
    if not shown:
        return None
    key = cfg.variant_default.get(game_id)
    chosen = next((v for v in shown if v.key == key), None)
    if chosen is None:
        opts = _options(cfg, game_id)
        chosen = next((v for v in shown if all(opts.get(k) == x for k, x in v.options.items())),
                      shown[0])
    return chosen


def _options(cfg: Any, game_id: str) -> dict[str, Any]:
    """The options a deal of ``game_id`` gets without a variant: the engine's defaults under
    the operator's configured ones."""
    import games

    if game_id not in games.ids():
        return {}
    opts = {o.name: o.default for o in games.game_class(game_id).options}
    opts.update(cfg.options_for(game_id))
    return opts
