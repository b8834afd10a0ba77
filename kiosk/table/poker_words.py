"""What the Draw Poker table says: the seats' actions, the buttons, the showdown.

Why apart from the screen: the words are the part a visitor must be able to follow ("Player
3 raises to 40"), in three languages, for up to seven computer players acting in turn; kept
as (msgid, fields) pairs without Kivy, they are checked by plain tests and translated by the
screen in the visitor's language. Sentences are whole msgids (never glued from pieces), so
each language can order its words and agree its verbs.
"""

from __future__ import annotations

from typing import Any

from games.draw_poker import UNITS
from games.engine import cards as C
from games.engine.model import Move
from games.families.seats import VISITOR
from kiosk.table.gin_turns import Text, _

#: the poker categories of :mod:`games.families.poker`, by category number
HAND_NAMES = (_("High card"), _("One pair"), _("Two pairs"), _("Three of a kind"),
              _("Straight"), _("Flush"), _("Full house"), _("Four of a kind"),
              _("Straight flush"), _("Royal flush"), _("Five of a kind"))


#: the two sentences with a number of cards in them: rendered with the plural forms
DRAWS = "draws-sentence"
EXCHANGE = "exchange-button"


def render(text: Text, tr: Any, trn: Any) -> str:
    """A (msgid, fields) pair in the visitor's language; the two plural sentences take the
    form their number needs (one card, two cards, five cards differ in Russian)."""
    msgid, fields = text
    if msgid == DRAWS:
        return trn("Player {seat} draws {n} card.", "Player {seat} draws {n} cards.",
                   fields["count"], seat=fields["n"])
    if msgid == EXCHANGE:
        return trn("Exchange {n} card", "Exchange {n} cards", fields["count"])
    return tr(msgid, **fields)


def seat_name(seat: int) -> Text:
    return (_("You"), {}) if seat == VISITOR else (_("Player {n}"), {"n": seat})


def hand_name(value: tuple[int, ...]) -> str:
    """The msgid naming a hand value (``(category, *ranks)``)."""
    return HAND_NAMES[value[0]]


def card_text(code: int, tr: Any) -> str:
    return tr("joker") if code >= C.JOKER else C.pretty(code)


def poker_order(cards: list[int] | tuple[int, ...]) -> list[int]:
    """The hand as a poker player holds it: high ranks first (the ace highest), pairs
    side by side, the joker last."""
    def key(c: int) -> tuple[int, int]:
        if c >= C.JOKER:
            return (99, 0)
        r = C.RANK[c]
        return (-(14 if r == 1 else r), C.SUIT[c])

    return sorted(cards, key=key)


#: what a seat did, as a sentence (the message line) and as a tag (under the seat)
_SAID = {
    "open": (_("Player {n} opens for {amount}."), _("opens {amount}")),
    "pass": (_("Player {n} passes."), _("passes")),
    "check": (_("Player {n} checks."), _("checks")),
    "bet": (_("Player {n} bets {amount}."), _("bets {amount}")),
    "call": (_("Player {n} calls {amount}."), _("calls {amount}")),
    "raise": (_("Player {n} raises to {amount}."), _("raises to {amount}")),
    "drop": (_("Player {n} folds."), _("folds")),
    "stand": (_("Player {n} stands pat."), _("stands pat")),
}


def action_words(seat: int, move: Move, paid: int, level: int) -> tuple[Text, Text]:
    """The sentence and the seat's tag for ``move`` by ``seat``: ``paid`` is what it put in
    the pot with this move, ``level`` the bet to match after it (a raise says the total)."""
    if move.kind == "draw":
        n = len(move.extra)
        return (DRAWS, {"n": seat, "count": n}), (_("draws {count}"), {"count": n})
    sentence, tag = _SAID[move.kind]
    amount = level if move.kind == "raise" else paid
    fields = {"n": seat, "amount": amount}
    return (sentence, fields), (tag, {"amount": amount})


def visitor_tag(move: Move, paid: int, level: int) -> Text:
    """The tag the visitor's own action leaves in the words line."""
    return action_words(VISITOR, move, paid, level)[1]


def button_specs(game: Any, marked: int) -> list[tuple[Text, Move | None, bool]]:
    """The visitor's choices now, as (label, move, main) with ``marked`` cards marked for
    exchange; the draw's move is built by the screen from the marked cards (None here)."""
    if game.to_move != VISITOR:
        return []
    phase = game.phase
    legal = game.legal_moves()
    kinds = {m.kind for m in legal}
    unit = UNITS[game.vars["round"]]
    out: list[tuple[Text, Move | None, bool]] = []
    if phase == "open":
        if "open" in kinds:
            out.append(((_("Open for {amount}"), {"amount": unit}), Move("open"), True))
        out.append(((_("Pass"), {}), Move("pass"), "open" not in kinds))
    elif phase == "draw":
        if marked:
            out.append(((EXCHANGE, {"count": marked}), None, True))
        out.append(((_("Stand pat"), {}), Move("stand"), not marked))
    elif phase == "bet":
        owe = game.vars["level"] - game.vars["bets"][VISITOR]
        if "check" in kinds:
            out.append(((_("Check"), {}), Move("check"), True))
            out.append(((_("Bet {amount}"), {"amount": unit}), Move("bet"), False))
        else:
            out.append(((_("Fold"), {}), Move("drop"), False))
            out.append(((_("Call {amount}"), {"amount": owe}), Move("call"), True))
            if "raise" in kinds:
                out.append(((_("Raise to {amount}"), {"amount": game.vars["level"] + unit}),
                            Move("raise"), False))
    return out


def prompt(game: Any) -> Text:
    """What the visitor is asked to do now (or whom the table waits for)."""
    s = game.to_move
    phase = game.phase
    if phase == "done":
        return _("Tap Next hand to deal again."), {}
    if s != VISITOR:
        if not game.vars["live"][VISITOR] and phase != "open":
            return _("You folded: Player {n} is thinking…"), {"n": s}
        return _("Player {n} is thinking…"), {"n": s}
    if phase == "open":
        if any(m.kind == "open" for m in game.legal_moves()):
            return _("Your turn: open the betting or pass."), {}
        return _("You need a pair of jacks or better to open: pass."), {}
    if phase == "draw":
        return _("Tap the cards you want to exchange, or stand pat."), {}
    return _("Your turn to bet."), {}


def result_lines(result: dict[str, Any], tr: Any) -> list[str]:
    """The showdown in words, translated: who takes each pot and with what, a bet nobody
    called that comes back to the visitor, and the opener's openers (the rule: the opener
    shows them, whatever happened). At most three lines, the main pot first."""
    def name(seat: int) -> str:
        msgid, fields = seat_name(seat)
        return tr(msgid, **fields)

    values, pots = result["values"], result["pots"]
    lines = []
    for k, pot in enumerate(pots):
        winners, amount = list(pot["winners"]), pot["amount"]
        hand = tr(hand_name(values[winners[0]])) if values else ""
        w = winners[0]
        if len(pots) == 1 and len(winners) > 1:
            line = tr("The pot of {pot} is split: {names}.", pot=amount,
                      names=", ".join(name(s) for s in winners))
        elif len(pots) == 1 and not result["shown"]:
            line = tr("Everyone else folded: you take the pot of {pot}.", pot=amount) \
                if w == VISITOR else \
                tr("Everyone else folded: Player {n} takes the pot of {pot}.", n=w, pot=amount)
        elif len(pots) == 1:
            line = tr("You take the pot of {pot} with {hand}.", pot=amount, hand=hand) \
                if w == VISITOR else \
                tr("Player {n} takes the pot of {pot} with {hand}.", n=w, pot=amount,
                   hand=hand)
        elif len(winners) > 1:
            names = ", ".join(name(s) for s in winners)
            line = tr("The main pot of {pot} is split: {names}.", pot=amount, names=names) \
                if k == 0 else \
                tr("A side pot of {pot} is split: {names}.", pot=amount, names=names)
        elif w == VISITOR:
            line = tr("You take the main pot of {pot} with {hand}.", pot=amount, hand=hand) \
                if k == 0 else \
                tr("You take a side pot of {pot} with {hand}.", pot=amount, hand=hand)
        elif k == 0:
            line = tr("Player {n} takes the main pot of {pot} with {hand}.", n=w, pot=amount,
                      hand=hand)
        else:
            line = tr("Player {n} takes a side pot of {pot} with {hand}.", n=w, pot=amount,
                      hand=hand)
        lines.append(line)
    back = result["returned"][VISITOR]
    if back:
        lines.append(tr("Your bet nobody called comes back to you: {chips}.", chips=back))
    opener = result["opener"]
    if opener >= 0 and result["openers"]:
        # the cards stay together on one line (no break between them: "8♣ / 4♠.")
        cards = "\u00a0".join(card_text(c, tr) for c in poker_order(result["openers"]))
        lines = lines[:2] + [tr("Your openers: {cards}.", cards=cards)
                             if opener == VISITOR else
                             tr("Player {n} opened with {cards}.", n=opener, cards=cards)]
    return lines[:3]


def end_lines(game: Any, leaving: bool, tr: Any) -> tuple[str, str]:
    """The end screen's title and one line: out of chips, every chip won, or leaving."""
    from games.draw_poker import STACK

    chips = game.vars["chips"][VISITOR]
    hands = len(game.vars["results"])
    played = tr("Hands played: {n}.", n=hands)
    if game.phase == "over" and chips == 0:
        return tr("You are out of chips"), tr("Thanks for playing! {played}", played=played)
    if game.phase == "over":
        return (tr("You won every chip at the table!"),
                tr("Your chips: {chips}. {played}", chips=chips, played=played))
    return (tr("Leave the table?"),
            tr("Your chips: {chips} (you sat down with {stack}). {played}",
               chips=chips, stack=STACK, played=played))


def hold_tip(hand: list[int] | tuple[int, ...], rule: str, tr: Any) -> str:
    """The first hand's tip in the draw, translated: which cards a plain player keeps (the
    standard hold the computer players start from), and that the others are exchanged."""
    from games.players.poker_holds import standard_hold

    keep = standard_hold(tuple(hand), rule)
    if len(keep) == len(hand):
        return tr("Tip: your hand is made: stand pat and keep all five.")
    if not keep:
        return tr("Tip: nothing is worth keeping: tap all five cards to exchange them.")
    cards = " ".join(card_text(c, tr) for c in poker_order(keep))
    return tr("Tip: keep {cards} and tap the other cards to exchange them.", cards=cards)
