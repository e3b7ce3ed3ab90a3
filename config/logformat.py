"""Log formats a collector can read: every record is exactly one line (tracebacks included)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# Attributes every record has, and uvicorn's copy of the message with terminal colours.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


def _fields(record: logging.LogRecord) -> dict[str, object]:
    fields: dict[str, object] = {
        "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname,
        "logger": record.name,
        "message": record.getMessage(),
        "process": record.process,
        "thread": record.threadName,
    }
    for key, value in record.__dict__.items():
        if key not in _STANDARD and not key.startswith("_"):
            fields[key] = value if isinstance(value, int | float | bool) else str(value)
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, process, thread, extras, exc."""

    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        if record.exc_info:
            fields["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            fields["stack"] = self.formatStack(record.stack_info)
        return json.dumps(fields, default=str)


class KeyValueFormatter(logging.Formatter):
    """``time=… level=… logger=… message="…"``: logfmt, readable by people and collectors."""

    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record)
        if record.exc_info:
            fields["exc"] = self.formatException(record.exc_info)
        return " ".join(f"{key}={_logfmt(value)}" for key, value in fields.items())


def _logfmt(value: object) -> str:
    text = str(value)
    if text and not any(c in text for c in ' "=\n\t\\'):
        return text
    return json.dumps(text)  # quoted, with newlines escaped: still one line
