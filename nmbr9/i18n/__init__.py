"""Translation of every text a player sees (gettext; English is the source).

    from nmbr9.i18n import _, ngettext
    label = _("Round {round} of {rounds}").format(round=r, rounds=n)

`_` looks the message up in the current language each time it is called, so
a screen that re-reads its texts after `set_language` shows the new language
without a restart; screens learn of a change through `on_language_change`.
The catalogues are the .po files in `locale/`, read at first use.
"""
from __future__ import annotations

import os
import sys
from gettext import NullTranslations
from typing import Callable, Mapping

from ..paths import LOCALE as LOCALE_DIR
DOMAIN = "nmbr9"
SOURCE_LANGUAGE = "en"
# Each language named in itself: the Settings list shows these untranslated.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "Español", "pl": "Polski"}
# The languages that write a decimal comma (1,5), as their printed numbers do.
DECIMAL_COMMA = {"de", "es", "pl"}

_translations: dict[str, NullTranslations] = {}
_current: str | None = None          # None until first use: then the system language
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:
    """Marks a message for the catalogues without translating it (translate when shown)."""
    return message


def available_languages() -> list[str]:
    """Language codes with a catalogue, English first: ["en", "de", "es", "pl"]."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE_LANGUAGE] + [c for c in found if c != SOURCE_LANGUAGE]


def language_name(code: str) -> str:
    """The language's own name for itself ("Polski"), or the code if unknown."""
    return LANGUAGE_NAMES.get(code, code)


def decimal(value: float, places: int = 1) -> str:
    """`value` with `places` decimals, written as the current language writes them ("1,5" in German)."""
    text = f"{value:.{places}f}"
    return text.replace(".", ",") if current_language() in DECIMAL_COMMA else text


def _language_of(locale_name: str) -> str:
    """'pl_PL.UTF-8@euro' -> 'pl'; 'C' and 'POSIX' -> 'en'."""
    name = locale_name.split(".")[0].split("@")[0].replace("-", "_")
    if name in ("C", "POSIX", ""):
        return SOURCE_LANGUAGE
    return name.split("_")[0].lower()


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for, as gettext reads it, or English.

    The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set decides;
    LANGUAGE may list several (de_AT:de:en) and the first one we have wins.
    """
    env = os.environ if environ is None else environ
    available = available_languages()
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            for part in value.split(":"):
                code = _language_of(part)
                if code in available:
                    return code
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def _load(code: str) -> NullTranslations:
    if code not in _translations:
        read = NullTranslations()  # English, also if the catalogue can't be read
        if code != SOURCE_LANGUAGE:
            from . import po
            path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
            try:
                read = po.translations(po.read(path))
            except (OSError, ValueError) as e:  # a damaged install must not stop the game
                print(f"nmbr9: the {code} translations can't be read, showing English ({e})", file=sys.stderr)
        _translations.setdefault(code, read)
    return _translations[code]


def current_language() -> str:
    global _current
    if _current is None:
        _current = system_language()
    return _current


def set_language(code: str | None) -> str:
    """Switch every later `_` to `code` ("pl", "pl_PL" or None for the system's) and tell the listeners.

    Returns the language now in use; an unknown code raises ValueError with a one-line message.
    """
    global _current
    new = system_language() if code in (None, "", "system") else _language_of(code)
    if new not in available_languages():
        raise ValueError(f"no translation for language {code!r}; available: {', '.join(available_languages())}")
    _load(new)  # a broken catalogue fails here, before anything switched
    changed = new != current_language()
    _current = new
    if changed:
        for listener in list(_listeners):
            listener(new)
    return new


def on_language_change(callback: Callable[[str], None]) -> Callable[[], None]:
    """Call `callback(code)` after each change of language; returns a function that unsubscribes."""
    _listeners.append(callback)

    def unsubscribe() -> None:
        if callback in _listeners:
            _listeners.remove(callback)
    return unsubscribe


def _(message: str) -> str:
    """`message` in the current language (English if it has no translation yet)."""
    if not message:
        return message  # gettext would return the catalogue header for ""
    return _load(current_language()).gettext(message)


def in_every_language(message: str) -> set[str]:
    """`message` in English and in each catalogue's language: to know a text that was stored in whichever
    language was in use then (e.g. an older tournament's default name)."""
    return {_load(code).gettext(message) for code in available_languages()}


def as_now(text: str, messages) -> str:
    """`text` in the current language if it is one of `messages` (each with at most a {number} field) as written
    in any language: a name the game gave and stored in the language of its day; any other text as it is."""
    return _as_one_of(text, messages, _)


def as_english(text: str, messages) -> str:
    """`text` in English if it is one of `messages` as written in any language: a name the game gives, kept in
    one language; any other text as it is."""
    return _as_one_of(text, messages, lambda message: message)


def _as_one_of(text: str, messages, translate: Callable[[str], str]) -> str:
    for message in messages:
        for form in in_every_language(message):
            head, field, tail = form.partition("{number}")
            number = text[len(head):len(text) - len(tail)] if len(text) > len(head) + len(tail) else ""
            if (text.startswith(head) and text.endswith(tail) and number.isdigit()) if field else text == form:
                return translate(message).format(number=number)
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for count `n` in the current language (Polish has three): ngettext("{n} point", "{n} points", n)."""
    return _load(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` where the same English word means two things: pgettext("result", "Wins")."""
    return _load(current_language()).pgettext(context, message)
