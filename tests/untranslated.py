"""What a page shows in English although the phone asked for another language: for the browser tests."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po
from playwright.sync_api import Page

from tabletop.languages import LOCALES

SHOWN = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent.trim();
    const shown = parent.closest('select') || parent.getClientRects().length;
    if (text && !parent.closest('script') && shown) texts.push(text);
  }
  for (const element of document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      if (element.getAttribute(name)) texts.push(element.getAttribute(name));
    }
  }
  return texts;
}"""


@cache
def english(language: str) -> tuple[re.Pattern[str], ...]:
    """Each English message the catalogue says otherwise, as a pattern whose {names} stand for anything."""
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file)
    patterns = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            if not text or text in strings or not re.search(r"[A-Za-z]{2}", re.sub(r"\{\w+\}", "", text)):
                continue
            pieces = re.split(r"(\{\w+\})", text)
            patterns.append(re.compile("".join(".+" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in pieces)))
    return tuple(patterns)


def untranslated(page: Page, language: str) -> list[str]:
    """The texts the page shows (words, labels, titles, alternatives) that are still an English message."""
    return sorted({text for text in page.evaluate(SHOWN)
                   if any(pattern.fullmatch(text) for pattern in english(language))})
