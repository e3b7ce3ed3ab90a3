"""``manage.py export_program ID``: print a program as seed-000 JSON."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from programs.export import export_program
from programs.models import Program


class Command(BaseCommand):
    help = "Print a program as seed-000 JSON (camelCase, ids derived from positions)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("program_id", type=int)
        parser.add_argument("--compact", action="store_true", help="one line, no indentation")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            program = Program.objects.get(pk=options["program_id"])
        except Program.DoesNotExist as exc:
            raise CommandError(f"There is no program {options['program_id']}.") from exc
        indent = None if options["compact"] else 2
        self.stdout.write(json.dumps(export_program(program), indent=indent, ensure_ascii=False))
