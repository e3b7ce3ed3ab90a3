"""Suggested replies at the end of the coach's text (seed 000, Phase 2).

The model ends a reply with a line ``---`` and then one suggested reply per line::

    Romanian Deadlifts target your hamstrings...
    ---
    Thanks!
    Show me a video

``split_replies`` returns the text without that tail and the replies: bullets, numbering and
quotes are stripped, empty and over-long lines dropped, duplicates removed, at most four kept.
Text without a ``---`` line has no suggested replies.
"""

from __future__ import annotations

import re

MAX_REPLIES = 4
MAX_REPLY_CHARS = 80
SEPARATOR = "---"

_BULLET = re.compile(r"^\s*(?:[-*•·–—]+|\d{1,2}[.)]|\(\d{1,2}\))\s*")
_QUOTES = "\"'“”‘’`«»"


def clean_reply(line: str) -> str:
    reply = _BULLET.sub("", line.strip(), count=1).strip()
    reply = reply.strip("*_").strip()  # markdown emphasis around the whole reply
    while len(reply) >= 2 and reply[0] in _QUOTES and reply[-1] in _QUOTES:
        reply = reply[1:-1].strip()
    return " ".join(reply.split())


def split_replies(text: str) -> tuple[str, list[str]]:
    """``(text without the suggested replies, [replies])``."""
    if not text:
        return "", []
    lines = text.splitlines()
    separator_at = None
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip() == SEPARATOR:
            separator_at = index
            break
    if separator_at is None:
        return text.strip(), []
    body = "\n".join(lines[:separator_at]).strip()
    replies: list[str] = []
    for line in lines[separator_at + 1 :]:
        reply = clean_reply(line)
        if not reply or len(reply) > MAX_REPLY_CHARS or reply in replies:
            continue
        replies.append(reply)
        if len(replies) == MAX_REPLIES:
            break
    return body, replies
