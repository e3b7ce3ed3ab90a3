"""``manage.py bench_schemas [--json]``: how many tokens the tool schemas cost every model call.

Counts the registry's tool definitions with the o200k vocabulary (``coach.llm.tokens``): as
``json.dumps`` writes them (the measure issue 7 used: 5,668 tokens before they were trimmed), as
compact JSON, and as the system-prompt section ``LLM_TOOL_FORMAT=text`` sends instead; then each
tool. ``--json`` prints the same figures as one JSON object.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand

from coach.llm.tokens import count_tool_tokens
from coach.registry import tool_definitions


class Command(BaseCommand):
    help = "Print the token count of the tool schemas sent with every model call."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = count_tool_tokens(tool_definitions())
        if options["json"]:
            self.stdout.write(json.dumps(counts, indent=2))
            return
        self.stdout.write(f"tool schemas, json.dumps:        {counts['json']:>6,} tokens (o200k)")
        self.stdout.write(f"tool schemas, compact JSON:      {counts['compact']:>6,} tokens")
        self.stdout.write(f"LLM_TOOL_FORMAT=text prompt:     {counts['text_prompt']:>6,} tokens")
        for name, tokens in counts["per_tool"].items():
            self.stdout.write(f"  {name:<30} {tokens:>6,}")
