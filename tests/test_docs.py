"""The documentation in docs/ and the code say the same: every option, preset, event type, verdict, reason and
route the code has is documented, and the docs name nothing the code does not have."""

from __future__ import annotations

import re
from pathlib import Path

from tabletop.game.events import EVENT_TYPES, GameEnd, Notice, NoticeReason, Penalty, PenaltyReason, RoundEnd, Score
from tabletop.game.rules import CHOICES, PRESETS
from tabletop.table import Table
from tabletop.web import WebSettings, create_app

DOCS = Path(__file__).resolve().parents[1] / "docs"


def first_column(path: Path, header: str, after: str = "") -> set[str]:
    """The code spans in the first column of the first table, past the line ``after``, whose header row starts
    with ``| header |``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = lines.index(after) if after else 0
    start = next(k for k, line in enumerate(lines) if k > begin and line.startswith(f"| {header} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(re.match(r"\| `([^`]+)`", line).group(1))  # type: ignore[union-attr]
    return set(rows)


def spans_after(path: Path, label: str) -> set[str]:
    """The code spans in the paragraph that begins with ``label``."""
    text = path.read_text(encoding="utf-8")
    paragraph = text[text.index(label):].split("\n\n")[0]
    return set(re.findall(r"`([^`]+)`", paragraph))


def test_every_option_is_in_the_rules_and_every_documented_option_exists() -> None:
    assert first_column(DOCS / "rules.md", "option") == set(CHOICES)
    presets = spans_after(DOCS / "rules.md", "Presets:")
    assert {str(preset) for preset in PRESETS} <= presets


def test_every_event_type_is_in_the_record_format_and_back() -> None:
    assert first_column(DOCS / "record.md", "type") == set(EVENT_TYPES)


def test_every_verdict_and_reason_is_in_the_record_format_and_back() -> None:
    record = DOCS / "record.md"
    verdicts = {kind.TYPE for kind in (Penalty, Notice, RoundEnd, Score, GameEnd)}
    assert first_column(record, "type", after="## Verdicts") == verdicts
    assert first_column(record, "reason", after="## Verdicts") == {str(reason) for reason in PenaltyReason}
    assert first_column(record, "reason", after="A notice changes nothing but says which line the referee could not "
                        "use and why, or whose draw it missed:") == {str(reason) for reason in NoticeReason}


def documented_routes() -> set[tuple[str, str]]:
    """Every ``METHOD /path`` the API document names, its placeholders and queries dropped."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    return {(method, re.sub(r"<[^>]+>", "<>", path.split("?")[0]))
            for method, path in re.findall(r"`(GET|POST|PUT|DELETE) (/[^`\s]*)`", text)}


def test_every_route_is_in_the_api_document_and_back() -> None:
    with Table() as table:
        app = create_app(table, WebSettings(pin="8642"))
    served = {(method, re.sub(r"<[^>]+>", "<>", rule.rule)) for rule in app.url_map.iter_rules()
              if rule.endpoint != "static" for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert documented_routes() == served
