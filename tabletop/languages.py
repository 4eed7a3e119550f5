"""The languages the table speaks, and their gettext catalogues, compiled from ``web/locale`` with Babel.

English is the language the messages are written in; every other language has a catalogue. The pages and the
spoken calls both read them from here.
"""

from __future__ import annotations

from gettext import NullTranslations

from babel.support import Translations

from tabletop.shipped import WEB_PACKAGE, shipped

LANGUAGES = {"en": "English", "sv": "Svenska", "da": "Dansk", "bg": "Български", "ru": "Русский"}
"""Every language the table speaks, each by its own name."""
ENGLISH = "en"
LOCALES = shipped(WEB_PACKAGE) / "locale"
DOMAIN = "messages"


def translations(language: str) -> NullTranslations:
    """The catalogue for ``language``; ValueError for a language the table does not speak."""
    if language not in LANGUAGES:
        raise ValueError(f"must be one of {', '.join(LANGUAGES)}")
    if language == ENGLISH:
        return NullTranslations()
    return Translations.load(str(LOCALES), [language], DOMAIN)
