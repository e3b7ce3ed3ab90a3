"""``manage.py coach_tools schema | preview ID PATH | apply ID PATH``

* ``schema`` prints the tool definitions sent to providers.
* ``preview`` dry-runs the tool calls in PATH (a JSON list, in either provider shape) against
  program ID; ``apply`` runs them for real, writing only if every call succeeds.

Both print ``{"success", "results", "preview", "program_version"}`` on standard output and exit
with status 0 when every call succeeds, 1 otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from coach.engine import ToolContext, apply_calls, preview_calls
from coach.registry import tool_definitions
from coach.toolcalls import ToolCall
from programs.history import program_change
from programs.models import Program, RevisionVia

from ._program_files import read_json


class Command(BaseCommand):
    help = "Print the tool schemas, or preview/apply a JSON list of tool calls on a program."

    def add_arguments(self, parser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("schema", help="print the tool definitions")
        for action in ("preview", "apply"):
            p = sub.add_parser(action, help=f"{action} a JSON list of tool calls")
            p.add_argument("program_id", type=int)
            p.add_argument("path", help="JSON file with a list of tool calls, or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "schema":
            self.stdout.write(json.dumps(tool_definitions(), indent=2, ensure_ascii=False))
            return
        try:
            program = Program.objects.get(pk=options["program_id"])
        except Program.DoesNotExist as exc:
            raise CommandError(f"There is no program {options['program_id']}.") from exc
        raw = read_json(options["path"])
        if not isinstance(raw, list):
            raw = [raw] if isinstance(raw, dict) else None
        if raw is None:
            raise CommandError("The file must hold a JSON list of tool calls.")
        calls = [ToolCall.from_raw(item) for item in raw]
        if options["action"] == "preview":
            result = preview_calls(ctx=ToolContext.for_program(program), calls=calls)
        else:
            with (
                transaction.atomic(),
                program_change(
                    program=program,
                    actor=None,
                    via=RevisionVia.COMMAND,
                    summary=f"coach_tools apply: {len(calls)} calls",
                ),
            ):
                result = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
        self.stdout.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        if not result.success:
            failed = sum(1 for r in result.results if not r.success)
            raise CommandError(
                f"{failed} of {len(calls)} calls failed; nothing was written.", returncode=1
            )
