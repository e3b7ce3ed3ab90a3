"""``manage.py docs_tools [--check] [--output PATH]``: write the tool reference, ``docs/tools.md``,
from the registry (``coach.tool_docs``). ``--check`` writes nothing and exits 1 when the file
differs from what the registry gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from coach.tool_docs import tools_markdown

DEFAULT_OUTPUT = Path(settings.BASE_DIR) / "docs" / "tools.md"


class Command(BaseCommand):
    help = "Write docs/tools.md (the tool reference) from the tool registry."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
        parser.add_argument(
            "--check", action="store_true", help="compare only; exit 1 when it is out of date"
        )

    def handle(self, *args: Any, output: Path, check: bool, **options: Any) -> None:
        text = tools_markdown()
        current = output.read_text(encoding="utf-8") if output.exists() else None
        if check:
            if current != text:
                raise CommandError(f"{output} is out of date: run manage.py docs_tools.")
            self.stdout.write(f"{output} is up to date.")
            return
        if current == text:
            self.stdout.write(f"{output} is up to date.")
            return
        output.write_text(text, encoding="utf-8")
        self.stdout.write(f"Wrote {output}.")
