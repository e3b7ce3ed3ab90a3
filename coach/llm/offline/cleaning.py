"""A message as the grammar reads it: quotes and apostrophes made plain, contractions typed
without their apostrophe written out ("cant" → "can't", "id like" → "i'd like"), numbers parted
from what they count ("4x12" → "4 x 12", "62.5kg" → "62.5 kg", "30-minute" → "30 minute"), and
the closing punctuation dropped."""

from __future__ import annotations

import re

from coach import vocabulary

_CONTRACTED = re.compile(rf"\b(?:{'|'.join(vocabulary.CONTRACTIONS)})\b", re.I)
_I_WOULD = re.compile(rf"\bid (?=(?:{'|'.join(vocabulary.I_WOULD_BEFORE)})\b)", re.I)


def _contracted(match: re.Match[str]) -> str:
    word = match.group(0)
    written = vocabulary.CONTRACTIONS[word.lower()]
    return written.capitalize() if word[:1].isupper() else written


def clean(message: str) -> str:
    text = message.strip().strip("\"'“”").strip()
    text = re.sub(r"[’‘`]", "'", text)
    text = re.sub(r"[“”]", '"', text)
    text = _CONTRACTED.sub(_contracted, text)
    text = _I_WOULD.sub("i'd ", text)
    text = re.sub(r"\b(\d+)\s*[x×]\s*(\d+)\b", r"\1 x \2", text)
    text = re.sub(
        r"\b(\d+(?:\.\d+)?)-?(?!(?:st|nd|rd|th)\b)([a-z]{1,7})\b", r"\1 \2", text, flags=re.I
    )
    return re.sub(r"\s+", " ", text).rstrip(" .!?")
