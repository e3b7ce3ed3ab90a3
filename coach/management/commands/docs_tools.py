"""``manage.py docs_tools [--check] [--output PATH] [--offline-output PATH]``: write the tool
reference, ``docs/tools.md``, from the registry (``coach.tool_docs``), and the offline commands
reference, ``docs/offline-commands.md``, from the families' offline declarations
(``coach.llm.offline.reference``). ``--check`` writes nothing and exits 1 when a file differs from
what the declarations give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from coach.llm.offline.reference import offline_markdown
from coach.tool_docs import tools_markdown

DEFAULT_OUTPUT = Path(settings.BASE_DIR) / "docs" / "tools.md"
DEFAULT_OFFLINE_OUTPUT = Path(settings.BASE_DIR) / "docs" / "offline-commands.md"


class Command(BaseCommand):
    help = "Write docs/tools.md and docs/offline-commands.md from the tools' declarations."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
        parser.add_argument("--offline-output", type=Path, default=DEFAULT_OFFLINE_OUTPUT)
        parser.add_argument(
            "--check", action="store_true", help="compare only; exit 1 when one is out of date"
        )

    def handle(
        self, *args: Any, output: Path, offline_output: Path, check: bool, **options: Any
    ) -> None:
        for path, text in ((output, tools_markdown()), (offline_output, offline_markdown())):
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if check and current != text:
                raise CommandError(f"{path} is out of date: run manage.py docs_tools.")
            if current == text or check:
                self.stdout.write(f"{path} is up to date.")
                continue
            path.write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {path}.")
