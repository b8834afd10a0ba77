"""Every message the kiosk can show, for the catalogs: writes the two templates
kiosk/locale/kiosk.pot (UI texts) and kiosk/locale/reasons.pot (the engine's refusals).

Babel's extractor finds the literal messages in the source (``tr("...")``,
``trn("...", "...")``, ``Reason("...")``); what no source scan can see is added from the
games themselves (the sentences that name kinds of piles, made from each game's rules:
``PatienceGame.reason_msgids``) and, for the UI, every msgid the English catalog already
holds (texts looked up from data: score labels, move kinds, pile labels, the play log's
sentences), so ``pybabel update`` never retires them. See docs/ui.md for the commands.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: what the extractor looks for: the UI's translators and the engine's reasons
KEYWORDS = {"tr": None, "_": None, "gettext": None, "trn": (1, 2), "ngettext": (1, 2),
            "Reason": None}


def extracted(paths: tuple[str, ...] = ("games", "kiosk")) -> Iterator[tuple[str, str, int]]:
    """(msgid, file, line) of every literal message in the source (a plural: its singular
    and plural as two ids)."""
    from babel.messages.extract import extract_from_file

    for top in paths:
        for path in sorted((REPO / top).rglob("*.py")):
            for line, message, _comments, _ctx in extract_from_file(
                    "python", path, keywords=KEYWORDS):
                ids = message if isinstance(message, tuple) else (message,)
                for msgid in ids:
                    if msgid:
                        yield msgid, path.relative_to(REPO).as_posix(), line


def game_reason_msgids() -> dict[str, set[str]]:
    """``{msgid: game ids}`` of the reasons made from each game's rules at run time."""
    import games
    from games.engine.reason import Either

    out: dict[str, set[str]] = {Either.OR: {"*"}}
    for game_id in games.ids():
        game = games.new(game_id, 1)
        for msgid in getattr(game, "reason_msgids", lambda: set())():
            out.setdefault(msgid, set()).add(game_id)
    return out


def reason_msgids() -> set[str]:
    """Every msgid a refusal :class:`~games.engine.reason.Reason` of any game can have."""
    from games.engine.reason import Either

    ids = {m for m, path, _ in extracted(("games",))}
    ids |= {m for m, path, _ in extracted(("kiosk",)) if path == "kiosk/table/controller.py"
            and not m.startswith("{")}
    ids |= set(game_reason_msgids())
    ids.add(Either.OR)
    return ids


def write_pots() -> dict[str, int]:
    """Write kiosk.pot and reasons.pot; returns the number of messages of each."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import write_po

    sys.path.insert(0, str(REPO))
    from kiosk.i18n import LOCALE_DIR, REASONS, UI, read_catalog

    cats = {d: Catalog(project="solitaire-kiosk", domain=d) for d in (UI, REASONS)}
    reason_ids = reason_msgids()
    for top in ("games", "kiosk"):
        for file in sorted((REPO / top).rglob("*.py")):
            rel = file.relative_to(REPO).as_posix()
            for line, message, _c, _ctx in extract_from_file("python", file, keywords=KEYWORDS):
                first = message[0] if isinstance(message, tuple) else message
                if not first:
                    continue
                domain = REASONS if first in reason_ids and top == "games" or (
                    rel == "kiosk/table/controller.py") else UI
                cats[domain].add(message, locations=[(rel, line)])
    for msgid, game_ids in sorted(game_reason_msgids().items()):
        if msgid not in cats[REASONS]:
            cats[REASONS].add(msgid, auto_comments=["from the rules of " + ", ".join(
                sorted(game_ids))])
    for message in read_catalog("en", UI):
        first = message.id[0] if message.pluralizable else message.id
        if first and first not in cats[UI]:
            cats[UI].add(message.id, auto_comments=["looked up from data"])
    out = {}
    for domain, cat in cats.items():
        with (LOCALE_DIR / f"{domain}.pot").open("wb") as f:
            write_po(f, cat, width=0, sort_output=False)
        out[domain] = len(cat)
    return out


if __name__ == "__main__":
    for domain, count in write_pots().items():
        print(f"kiosk/locale/{domain}.pot: {count} messages")
