"""The scoreboard's languages, through Flask-Babel (see :mod:`tabletop.languages`).

A page is written in its phone's language: the one chosen on the page (remembered in a cookie), else the
browser's own (Accept-Language), else the table's default from its config. The page carries its catalogue, so
that its scripts write what they show in the same language. The API stays language-free: codes, not sentences.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale

from tabletop.languages import DOMAIN, LANGUAGES, LOCALES, translations

COOKIE = "tabletop-language"
ENGLISH_PLURAL = "(n != 1)"


def install(app: Flask, default: str) -> None:
    """Write ``app``'s pages in each phone's language, ``default`` where neither the phone nor its browser says."""
    Babel(app, locale_selector=lambda: chosen(default), default_domain=DOMAIN,
          default_translation_directories=str(LOCALES))
    app.jinja_env.globals.update(languages=LANGUAGES, page_language=lambda: str(get_locale()),
                                 catalog_json=lambda: page_catalog(str(get_locale())))


def chosen(default: str) -> str:
    picked = request.cookies.get(COOKIE)
    if picked in LANGUAGES:
        return picked
    return request.accept_languages.best_match(LANGUAGES) or default


@functools.cache
def page_catalog(language: str) -> str:
    """The catalogue as JSON for a page's scripts: every message, its plural forms, and the plural rule."""
    catalog = translations(language)
    messages: dict[str, Any] = {}
    for key, text in getattr(catalog, "_catalog", {}).items():
        if isinstance(key, tuple):
            forms = messages.setdefault(key[0], [])
            forms.extend([""] * (key[1] + 1 - len(forms)))
            forms[key[1]] = text
        elif key:
            messages[key] = text
    header = getattr(catalog, "_info", {}).get("plural-forms", "")
    rule = re.search(r"plural=(.+?);?\s*$", header)
    data = {"language": language, "plural": rule.group(1) if rule else ENGLISH_PLURAL, "messages": messages}
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
