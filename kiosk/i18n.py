"""Translations: gettext ``.po`` catalogs read at start, no compiled ``.mo`` files needed.

Why our own loader: the Pi image and CI need no Debian ``gettext`` tools, and a ``.po`` file
is simple enough to parse in a few lines. Messages are keyed by their English text (msgid);
a missing or empty translation falls back to the English text, so a new string is never blank.
Game names and rules are not here: they come from ``games.catalog()`` per language.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("zh", "en", "ru")
DEFAULT_LANGUAGE = "en"
#: how each language names itself, for the language buttons
LANGUAGE_NAMES = {"zh": "中文", "en": "English", "ru": "Русский"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def parse_po(text: str) -> dict[str, str]:
    """Parse ``.po`` text into ``{msgid: msgstr}`` (contexts and plurals are not used here)."""
    out: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None:
            key = "".join(msgid)
            if key:
                out[key] = "".join(msgstr)

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            msgid, msgstr = [ast.literal_eval(line[6:])], None
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:])]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
    flush()
    return out


_catalogs: dict[str, dict[str, str]] = {}


def catalog(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (loaded once from ``locale/<lang>/LC_MESSAGES/kiosk.po``)."""
    if lang not in _catalogs:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / "kiosk.po"
        try:
            _catalogs[lang] = parse_po(path.read_text(encoding="utf-8"))
        except OSError:
            _catalogs[lang] = {}
    return _catalogs[lang]


def normalize(lang: str | None) -> str:
    """A supported language code for whatever configuration gave (``zh_CN`` -> ``zh``)."""
    code = (lang or "").lower().replace("-", "_").split("_")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


class Translator:
    """The current language and its ``_()``; listeners hear when the language changes."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = normalize(lang)
        self._listeners: list[Callable[[str], None]] = []

    def gettext(self, msgid: str, **fields: object) -> str:
        text = catalog(self.lang).get(msgid) or msgid
        return text.format(**fields) if fields else text

    __call__ = gettext

    def set_language(self, lang: str) -> None:
        lang = normalize(lang)
        if lang == self.lang:
            return
        self.lang = lang
        for listener in list(self._listeners):
            listener(lang)

    def bind(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def next_language(self) -> str:
        return LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]


def all_catalog_texts() -> Iterator[str]:
    """Every text the app can show in any language (for the font subset and its test)."""
    for lang in LANGUAGES:
        for key, value in catalog(lang).items():
            yield key
            yield value
    yield from LANGUAGE_NAMES.values()
    import games

    for entry in games.catalog():
        for field in ("names", "description", "rules"):
            yield from entry.get(field, {}).values()


def bold_texts() -> Iterator[str]:
    """Texts that may be drawn in bold (the bold font is a smaller subset): UI texts and
    game names. Rules and descriptions are always drawn in the regular face."""
    for lang in LANGUAGES:
        for key, value in catalog(lang).items():
            yield key
            yield value
    yield from LANGUAGE_NAMES.values()
    import games

    for entry in games.catalog():
        yield from entry.get("names", {}).values()


def game_text(entry: dict, field: str, lang: str) -> str:
    """A game's name/description/rules in ``lang``, falling back to English."""
    texts = entry.get(field) or {}
    return texts.get(lang) or texts.get(DEFAULT_LANGUAGE) or ""
