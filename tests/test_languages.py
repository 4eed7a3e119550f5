"""The table's languages: every message translated in every catalogue, and each phone served in its own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from tabletop.config import load_config
from tabletop.errors import ConfigError
from tabletop.languages import LANGUAGES, LOCALES
from tabletop.table import Table
from tabletop.web import WebSettings, create_app

ROOT = Path(__file__).parent.parent
TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACEHOLDER = re.compile(r"\{\w+\}")


def messages_in_the_code() -> set[str]:
    """Every message the pages, their scripts and the spoken calls say, as ``pybabel extract`` finds them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords={"_": None, "ngettext": (1, 2)})
    return {message if isinstance(message, str) else message[0] for _, _, message, _, _ in found}


def catalogue(language: str, kind: str = "po"):  # type: ignore[no-untyped-def]
    path = LOCALES / language / "LC_MESSAGES" / f"messages.{kind}"
    with path.open("rb") as file:
        return read_po(file) if kind == "po" else read_mo(BytesIO(file.read()))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_in_the_code_is_translated_with_its_placeholders(language: str) -> None:
    po = catalogue(language)
    ids = {message.id if isinstance(message.id, str) else message.id[0]: message for message in po if message.id}
    missing = messages_in_the_code() - set(ids)
    assert not missing, f"not in the {language} catalogue (pybabel update): {sorted(missing)[:5]}"
    for message in ids.values():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"untranslated in {language}: {message.id!r}"
        assert not message.fuzzy, f"fuzzy in {language}: {message.id!r}"
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set(PLACEHOLDER.findall(" ".join(english)))
        for text in strings:
            have = set(PLACEHOLDER.findall(text))
            assert have <= wanted and wanted - have <= {"{n}"}, f"{language}: {message.id!r} -> {text!r}"
        if isinstance(message.id, tuple):
            assert len(strings) == po.num_plurals


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_in_step_with_its_source(language: str) -> None:
    """The .mo the build compiled (setup.py) says what the .po beside it says: reinstall after editing one."""
    def pairs(catalog) -> set[tuple[object, object]]:  # type: ignore[no-untyped-def]
        def frozen(value: object) -> object:
            return tuple(value) if isinstance(value, list | tuple) else value
        return {(frozen(m.id), frozen(m.string)) for m in catalog if m.id}

    assert pairs(catalogue(language)) == pairs(catalogue(language, "mo"))


@pytest.fixture
def client() -> Iterator[FlaskClient]:
    with Table() as table:
        app = create_app(table, WebSettings(pin="2468", language="da"))
        yield app.test_client()


def page_language(client: FlaskClient, path: str = "/", **headers: str) -> tuple[str, dict[str, object]]:
    html = client.get(path, headers=headers).get_data(as_text=True)
    language = re.search(r'<html lang="(\w+)">', html)
    data = re.search(r'<script id="catalog" type="application/json">(.*?)</script>', html, re.S)
    assert language is not None and data is not None
    return language.group(1), json.loads(data.group(1))


def test_a_phone_gets_its_browsers_language_its_own_choice_or_the_tables(client: FlaskClient) -> None:
    language, catalog = page_language(client, **{"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert language == "ru" and catalog["language"] == "ru"
    assert catalog["messages"]["Penalties"] != "Penalties"
    assert len(catalog["messages"]["card"]) == 3 and "n % 10" in str(catalog["plural"])
    assert page_language(client, **{"Accept-Language": "fr-FR,fr"})[0] == "da", "the table's default"
    client.set_cookie("tabletop-language", "sv")
    assert page_language(client, "/join", **{"Accept-Language": "ru"})[0] == "sv", "the phone's own choice"
    client.set_cookie("tabletop-language", "xx")
    assert page_language(client, **{"Accept-Language": "bg"})[0] == "bg", "an unknown choice is ignored"


def test_the_api_stays_language_free(client: FlaskClient) -> None:
    english = client.get("/api/view", headers={"Accept-Language": "en"}).get_json()
    russian = client.get("/api/view", headers={"Accept-Language": "ru"}).get_json()
    assert english == russian


def test_the_tables_language_is_one_line_of_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[table]\nlanguage = "sv"\n\n[panel]\nvoice = true\n', encoding="utf-8")
    loaded = load_config(config, environ={})
    assert loaded.language == "sv" and loaded.panel.voice
    config.write_text('[table]\nlanguage = "fr"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"table\.language: must be one of en, sv, da, bg, ru"):
        load_config(config, environ={})
