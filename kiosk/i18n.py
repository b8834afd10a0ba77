"""Translations: gettext ``.po`` catalogs, read with Babel and looked up with ``gettext``.

The catalogs stay ``.po`` text in the source and in the wheel (what translators and
``pybabel update`` edit). At first use Babel's reader parses a language's ``.po`` and
compiles it in memory into the standard library's :class:`gettext.GNUTranslations`, so
plural forms (Russian has three: 1 ход, 2 хода, 5 ходов) follow the catalog's
``Plural-Forms`` header and no compiled ``.mo`` file has to be built, shipped or kept in step
(see docs/ui.md). Messages are keyed by their English text (msgid); a missing or empty
translation falls back to the English text, so a new string is never blank.
Game names and rules are not here: they come from ``games.catalog()`` per language.
"""

from __future__ import annotations

import gettext
import io
import logging
import re
import string
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from games.engine.reason import Card, Either, GameName, Rank, Reason, Suit

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("zh", "en", "ru")
DEFAULT_LANGUAGE = "en"
#: how each language names itself, for the language buttons
LANGUAGE_NAMES = {"zh": "中文", "en": "English", "ru": "Русский"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: the UI's texts (and the back end's sentences the operator reads)
UI = "kiosk"
#: the engine's refusal reasons (games.engine.reason), drawn in the regular face only
REASONS = "reasons"
DOMAINS = (UI, REASONS)


def po_path(lang: str, domain: str = UI) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(lang: str, domain: str = UI):
    """The Babel :class:`~babel.messages.catalog.Catalog` of ``lang`` (raises on a bad file)."""
    from babel.messages.pofile import read_po

    with po_path(lang, domain).open("rb") as f:
        # no locale: the plural rule comes from the catalog's own Plural-Forms header, and
        # Babel need not load its CLDR data for the language (3 MB of memory)
        return read_po(f, domain=domain, abort_invalid=True)


_translations: dict[tuple[str, str], gettext.NullTranslations] = {}
_texts: dict[tuple[str, str], dict[str, str]] = {}
_all: dict[tuple[str, str], list[str]] = {}


def translations(lang: str, domain: str = UI) -> gettext.NullTranslations:
    """The ``gettext`` translations of ``lang``, compiled from its ``.po`` once. A missing or
    broken catalog is logged and gives English, so the kiosk still starts."""
    key = (lang, domain)
    if key not in _translations:
        from babel.messages.mofile import write_mo

        try:
            cat = read_catalog(lang, domain)
            buf = io.BytesIO()
            write_mo(buf, cat)
            buf.seek(0)
            _translations[key] = gettext.GNUTranslations(buf)
            _texts[key], _all[key] = _flat(cat)
        except Exception as err:  # noqa: BLE001 - any bad catalog: English, never a crash
            if lang != DEFAULT_LANGUAGE:
                log.error("%s translations for %s not loaded from %s (%s): showing English",
                          domain, lang, po_path(lang, domain), err)
            _translations[key] = gettext.NullTranslations()
            _texts[key], _all[key] = {}, []
    return _translations[key]


def _flat(cat) -> tuple[dict[str, str], list[str]]:
    """``{msgid: msgstr}`` (a plural's singular and plural ids give its first two forms) and
    every text of the catalog, all plural forms included."""
    out: dict[str, str] = {}
    texts: list[str] = []
    for message in cat:
        if not message.id:
            continue
        ids = message.id if message.pluralizable else (message.id,)
        strings = message.string if message.pluralizable else (message.string,)
        for i, msgid in enumerate(ids):
            out[msgid] = strings[min(i, len(strings) - 1)] if strings else ""
        texts.extend(ids)
        texts.extend(t for t in strings if t)
    return out, texts


def preload() -> None:
    """Read every catalog now (each is read once; a second reader only repeats the work)."""
    for lang in LANGUAGES:
        for domain in DOMAINS:
            translations(lang, domain)


def catalog(lang: str, domain: str = UI) -> dict[str, str]:
    """``{msgid: msgstr}`` of ``lang``, for the tests and checks; the app looks texts up
    through :func:`translations`."""
    translations(lang, domain)
    return _texts[(lang, domain)]


def catalog_texts(lang: str, domain: str = UI) -> list[str]:
    """Every msgid and translation of ``lang``, each plural form included (font subset)."""
    translations(lang, domain)
    return _all[(lang, domain)]


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
        text = translations(self.lang).gettext(msgid)
        return _format(text, msgid, fields)

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int, **fields: object) -> str:
        """The form of a sentence that fits the number ``n`` (``n`` is also a field)."""
        text = translations(self.lang).ngettext(singular, plural, n)
        return _format(text, singular if n == 1 else plural, {"n": n, **fields})

    def reason(self, value: Reason | str | None) -> str:
        """An engine :class:`~games.engine.reason.Reason` (or a back-end sentence) in this language."""
        return translate(value, self.lang)

    def sentences(self, parts: Iterable[Reason | str]) -> str:
        return translate_parts(parts, self.lang)

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
        for domain in DOMAINS:
            yield from catalog_texts(lang, domain)
    yield from LANGUAGE_NAMES.values()
    import games

    for entry in games.catalog():
        for field in ("names", "description", "rules"):
            yield from entry.get(field, {}).values()


def bold_texts() -> Iterator[str]:
    """Texts that may be drawn in bold (the bold font is a smaller subset): UI texts and
    game names. Rules and descriptions are always drawn in the regular face."""
    for lang in LANGUAGES:
        yield from catalog_texts(lang)
    yield from LANGUAGE_NAMES.values()
    import games

    for entry in games.catalog():
        yield from entry.get("names", {}).values()


def game_text(entry: dict, field: str, lang: str) -> str:
    """A game's name/description/rules in ``lang``, falling back to English."""
    texts = entry.get(field) or {}
    return texts.get(lang) or texts.get(DEFAULT_LANGUAGE) or ""


# ---------------------------------------------------------------------------- reasons
class _Lenient(string.Formatter):
    """Fills a translated template: format specs pick English forms only, so they are
    ignored here; every value comes already rendered."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return str(value)


_LENIENT = _Lenient()


def _format(text: str, fallback: str, fields: dict[str, Any]) -> str:
    if not fields:
        return text
    try:
        return text.format(**fields)
    except (KeyError, IndexError, ValueError):
        log.error("translation %r does not fit its fields %s", text, sorted(fields))
        return fallback.format(**fields)


def _param(value: Any, lang: str) -> str:
    """One parameter of a reason in ``lang``: cards, ranks and suits as the signs every
    visitor reads (``J♠``), nested phrases and "or" lists translated, a game by its name."""
    if isinstance(value, Reason):
        return translate(value, lang)
    if isinstance(value, Either):
        items = [_param(v, lang) for v in value]
        template = translations(lang, REASONS).gettext(Either.OR)
        out = items[0]
        for item in items[1:]:
            out = _LENIENT.format(template, a=out, b=item)
        return out
    if isinstance(value, Card | Rank | Suit):
        return value.sign()
    if isinstance(value, GameName):
        import games

        try:
            entry = games.summary(value)  # the names only: no game module is imported
        except games.GameError:
            return value.english("")
        return game_text(entry, "names", lang)
    return str(value)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def _sentences(text: str, lang: str) -> str:
    """A back-end text (the play log's status, an export error) of one or more catalog
    sentences: each sentence is looked up on its own; unknown ones stay English."""
    t = translations(lang)
    whole = t.gettext(text)
    if whole != text or not text:
        return whole
    return join_sentences((t.gettext(p) for p in _SENTENCE_END.split(text)), lang)


def join_sentences(texts: Iterable[str], lang: str) -> str:
    """Sentences already in ``lang`` as one text: Chinese puts none of the space between
    them that English and Russian do."""
    return ("" if lang == "zh" else " ").join(t for t in texts if t)


def translate_parts(parts: Iterable[Reason | str], lang: str) -> str:
    """Several sentences (values or catalog texts) as one text in ``lang``."""
    return join_sentences((translate(p, lang) for p in parts if p), lang)


def _template(msgid: str, lang: str) -> str | None:
    """The translation of a value's template: the engine's reasons first, then the UI's (a
    back end's value sentence is a UI text); None when neither catalog translates it. A
    translation may equal its msgid ("{file}: {key}: {problem}" in Russian)."""
    for domain in (REASONS, UI):
        translations(lang, domain)
        text = _texts[(lang, domain)].get(msgid)
        if text:
            return text
    return None


def translate(value: Reason | str | None, lang: str) -> str:
    """A refusal reason (or a back-end sentence of the catalogs) in ``lang``; English when
    the catalog has no translation, never a half-filled template."""
    if value is None:
        return ""
    if not isinstance(value, Reason):
        return _sentences(str(value), lang)
    english = str(value)
    if lang == DEFAULT_LANGUAGE:
        return english
    template = _template(value.msgid, lang)
    if template is None:
        return english
    try:
        return _LENIENT.format(template, **{k: _param(v, lang) for k, v in value.params})
    except (KeyError, IndexError, ValueError):
        log.error("translation of %r does not fit its fields", value.msgid)
        return english
