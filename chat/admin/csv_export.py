"""A streaming CSV of tool-call audit records: rows are written as the database cursor yields them
(``iterator(chunk_size=...)``), so 100,000 records never sit in memory at once.

Cells that a spreadsheet would read as a formula (starting with ``= + - @``, a tab or a carriage
return) get a leading ``'`` (OWASP's CSV-injection advice): arguments are written by a model and
names by athletes, and neither may run in a reviewer's spreadsheet.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import QuerySet
from django.http import StreamingHttpResponse

CHUNK_SIZE = 2000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# (header, value path); JSON columns are written as compact JSON text.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "pk"),
    ("created_at", "created_at"),
    ("athlete", "athlete__username"),
    ("conversation", "conversation_id"),
    ("batch", "batch_id"),
    ("tool", "tool"),
    ("call_id", "call_id"),
    ("kind", "kind"),
    ("sensitivity", "sensitivity"),
    ("status", "status"),
    ("provider", "provider"),
    ("model", "model"),
    ("prompt_tokens", "prompt_tokens"),
    ("completion_tokens", "completion_tokens"),
    ("model_latency_ms", "model_latency_ms"),
    ("apply_latency_ms", "apply_latency_ms"),
    ("turn_call_count", "turn_call_count"),
    ("many_calls", "many_calls"),
    ("decided_by", "decided_by__username"),
    ("arguments", "arguments"),
    ("applied_arguments", "applied_arguments"),
)
JSON_COLUMNS = {"arguments", "applied_arguments"}


class _Echo:
    """A file-like object whose ``write`` returns what it was given (Django's streaming-CSV
    recipe): ``csv.writer`` formats one row, the generator yields it."""

    def write(self, value: str) -> str:
        return value


def safe_cell(value: Any) -> Any:
    """A cell as written to the CSV: text that starts like a formula gets a leading quote."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _cell(header: str, value: Any) -> Any:
    if header in JSON_COLUMNS:
        value = "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
    elif hasattr(value, "isoformat"):
        value = value.isoformat()
    return safe_cell(value)


def csv_rows(queryset: QuerySet, *, chunk_size: int = CHUNK_SIZE) -> Iterator[list[Any]]:
    """The header, then one row per record, read in chunks of ``chunk_size``."""
    headers = [header for header, _ in COLUMNS]
    yield headers
    values = queryset.values_list(*(path for _, path in COLUMNS))
    for row in values.iterator(chunk_size=chunk_size):
        yield [_cell(header, value) for header, value in zip(headers, row, strict=True)]


def stream_csv(rows: Iterable[list[Any]], *, filename: str) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
