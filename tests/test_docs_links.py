"""The README and docs/ link only to files that exist, and the README's "Where to go next" lists
every page of docs/ (docs/tools.md is generated: tests/coach/test_tool_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def relative_links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(page.read_text(encoding="utf-8"))
        if not re.match(r"[a-z]+:", target)
    ]


def test_every_relative_link_of_the_readme_and_docs_points_to_a_file():
    broken = [
        f"{page.relative_to(ROOT)} → {target}"
        for page in PAGES
        for target in relative_links(page)
        if not (page.parent / target).exists()
    ]
    assert broken == []


def test_the_readme_leads_to_every_page_of_docs():
    linked = {(ROOT / target).resolve() for target in relative_links(ROOT / "README.md")}
    assert [page.name for page in PAGES[1:] if page.resolve() not in linked] == []


def test_the_link_pattern_finds_relative_links_and_skips_web_ones():
    page = "[a](docs/a.md) [b](b.md#part) [c](https://example.com/c.md) [d](mailto:x@y.z)"
    assert [t for t in LINK.findall(page) if not re.match(r"[a-z]+:", t)] == [
        "docs/a.md",
        "b.md",
    ]
