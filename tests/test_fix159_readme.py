"""review141: the README as a new server admin reads it. The two set-up commands first, then a
table of contents whose every link reaches a heading; the long Reliability list moved to
docs/RELIABILITY.md, a summary and its link left; the update's steps quote the code."""

from __future__ import annotations

import re
from pathlib import Path

from data.db import SchemaTooNew, too_new

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    return {slug(h) for h in re.findall(r"^#{1,4} (.+)$", text, re.M)}


def test_the_set_up_commands_come_first_then_the_contents_and_the_quick_start() -> None:
    first = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first.startswith("make run ") and "\nmake test " in first
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings[:3] == ["Contents", "Quick start for a server admin", "Playing in a terminal"]
    assert README.index("## Contents") > README.index(first)


def test_every_link_of_the_contents_reaches_a_heading() -> None:
    contents = README.split("## Contents", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    assert len(links) > 15
    assert [link for link in links if link not in anchors(README)] == []
    for doc, anchor in re.findall(r"\]\((docs/[A-Z]+\.md)#([^)]+)\)", README):
        assert anchor in anchors((ROOT / doc).read_text(encoding="utf-8")), (doc, anchor)


def test_reliability_is_a_summary_with_its_link_and_the_list_lives_in_docs() -> None:
    section = README.split("## Reliability\n", 1)[1].split("\n## ", 1)[0]
    assert "[docs/RELIABILITY.md](docs/RELIABILITY.md)" in section
    assert "`test_" not in section and len(section) < 1500
    full = (ROOT / "docs" / "RELIABILITY.md").read_text(encoding="utf-8")
    assert full.startswith("# Reliability\n")
    assert full.count("`test_") > 100 and "starts\n  afresh" not in full


def test_the_update_quotes_the_codes_refusal_of_a_newer_database() -> None:
    section = README.split("### Updating\n", 1)[1].split("\n### ", 1)[0]
    said = too_new("X", SchemaTooNew(9, 8))
    shown = re.search(r'\("(the database … has schema version N[^"]+)"', section.replace("\n", " "))
    assert shown is not None
    assert shown.group(1).replace("…", "X").replace("N", "9").replace("(M)", "(8)") == said
    assert "make backup" in section and "make run" in section and "database migrated to schema" \
        in section
