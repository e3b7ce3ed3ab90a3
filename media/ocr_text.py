"""An ingredient line as the OCR engine read it, put right before the nutrition family's line
reader reads it: the engine's known confusions, undone by rules that hold for any recipe.

**Fraction signs.** The recognition model (PP-OCRv4) has no "½", "¼", "¾", "⅓", "⅔" or "⅛" among
its 6,623 characters, so a printed fraction sign always comes back as something else. Measured on
the eight fraction lines in 12 faces at 20 and 26 px (docs/media.md): "1/2" (most often), the
slash lost ("12", "1 12", "14"), "%" for the sign or its stroke ("%", "%2", "1%4"), a half lost
("/2", "3/"), or "11/2" for "1½". Read here as:

* "1 12 cups", "2 14 tbsp": a whole number, then two digits that are a proper fraction (1/2, 1/4,
  3/4, 1/3, 2/3, 1/8): a mixed number ("1 1/2"). No recipe prints "1 12".
* "11/2", "13/4": an improper fraction, which recipes don't print, glued to a whole: "1 1/2".
* "1%4", "%2", "1 %2": "%" standing for the slash, or for the sign with a half lost: "1/4",
  "1/2", "1 1/2". "/2": the numerator of a half is 1. "3/" and "2/": three quarters and two
  thirds (the only signs with a 3 or a 2 on top), flagged (``doubt``). A bare "%", "3%" (which
  could be "3½" as well as "¾") or "1/" stays as read: the line is not read and is shown as
  printed.
* "12 tsp", "14 cup", "34 cup", "112 cups": the slash lost before a spoon or a cup, where twelve
  or a hundred and twelve is not what a recipe means: read as the fraction ("1/2", "1 1/2") and
  **flagged** (``doubt``) so the card asks the athlete to check that line. Before any other unit
  ("12 g") the number stands.

**Letters for digits.** Serif type's "1" reads as "I", "l" or "|" at the start of a line ("Icup
jasmine rice"), and a comma as a full stop ("1cucumber.chopped"); "tbsp" as "thsp". These are put
right only when the line as read doesn't read (``variants``), so a line that reads as printed is
never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from nutrition.services import LineReader, ReadLine

FLAGS = re.IGNORECASE
PROPER = {("1", "2"), ("1", "4"), ("3", "4"), ("1", "3"), ("2", "3"), ("1", "8")}
SPOONS = r"(?:(?:tsp|teaspoon|tbsp|tbs|tablespoon|cup)s?|c(?![a-z]))"  # spaces are often lost
TBSP = re.compile(r"(?<![a-z])(?:thsp|tbps)", FLAGS)
MIXED_LOST = re.compile(r"^(\W*)(\d{1,2})\s+([1-3])([2348])(?!\d)")
IMPROPER = re.compile(r"^(\W*)(\d)([1-3])\s*[/%]\s*([2348])(?!\d)")
PERCENT = re.compile(r"^(\W*)(\d{1,2}\s+)?([1-3])?\s*%\s*([2348])?(?!\d)")
HALF_LOST = re.compile(r"^(\W*)(\d{1,2}\s+)?/\s*2(?!\d)")
DENOMINATOR_LOST = re.compile(r"^(\W*)(\d{1,2}\s+)?([23])\s*/(?!\s*\d)")
ONLY = {"3": "4", "2": "3"}  # a sign's numerator that names it: 3/4 is the only one with a 3
BARE = re.compile(rf"^(\W*)(\d?)([1-3])([2348])(\s*{SPOONS})", FLAGS)
LEADING_ONE = re.compile(r"^(\W*)[Il|!](?=\s*[a-z])")
FULL_STOP = re.compile(r"(?<=[a-z])\.(?=\s*[a-z])", FLAGS)


@dataclass(frozen=True)
class Fixed:
    text: str
    doubt: str = ""  # why the athlete should check this line (a fraction guessed)


def _proper(numerator: str, denominator: str) -> bool:
    return (numerator, denominator) in PROPER


def _doubt(text: str, fraction: str) -> str:
    return (
        f"“{text.strip()}” was read as {fraction}: the reader can't see fraction signs, so "
        "check the amount."
    )


def fractions(text: str) -> Fixed:
    """``text`` with the engine's renderings of fraction signs written as "1 1/2" (see above)."""
    text = TBSP.sub("tbsp", text)
    if (m := MIXED_LOST.match(text)) and _proper(m.group(3), m.group(4)):
        return Fixed(f"{m.group(1)}{m.group(2)} {m.group(3)}/{m.group(4)}{text[m.end() :]}")
    if (m := IMPROPER.match(text)) and _proper(m.group(3), m.group(4)):
        return Fixed(f"{m.group(1)}{m.group(2)} {m.group(3)}/{m.group(4)}{text[m.end() :]}")
    if (m := PERCENT.match(text)) and m.group(4):  # "3%" alone could be "3½" as well as "¾"
        numerator, denominator = m.group(3) or "1", m.group(4)
        if _proper(numerator, denominator):
            whole = m.group(2) or ""
            return Fixed(f"{m.group(1)}{whole}{numerator}/{denominator}{text[m.end() :]}")
    if m := HALF_LOST.match(text):
        return Fixed(f"{m.group(1)}{m.group(2) or ''}1/2{text[m.end() :]}")
    if m := DENOMINATOR_LOST.match(text):
        numerator = m.group(3)
        fraction = f"{m.group(2) or ''}{numerator}/{ONLY[numerator]}"
        return Fixed(f"{m.group(1)}{fraction}{text[m.end() :]}", doubt=_doubt(text, fraction))
    if (m := BARE.match(text)) and _proper(m.group(3), m.group(4)):
        whole = f"{m.group(2)} " if m.group(2) else ""
        fraction = f"{whole}{m.group(3)}/{m.group(4)}"
        return Fixed(
            f"{m.group(1)}{fraction}{m.group(5)}{text[m.end() :]}", doubt=_doubt(text, fraction)
        )
    return Fixed(text)


def variants(text: str) -> list[str]:
    """Other readings of a line that didn't read as printed: "I"/"l"/"|" for a leading "1", a full
    stop for a comma. Each is tried only after the line as read."""
    out = []
    one = LEADING_ONE.sub(r"\g<1>1", text)
    for candidate in (one, FULL_STOP.sub(", ", text), FULL_STOP.sub(", ", one)):
        if candidate != text and candidate not in out:
            out.append(candidate)
    return out


def read(text: str, reader: LineReader) -> tuple[ReadLine | None, str]:
    """The line read (its ``text`` as the engine read it) and a doubt to show, or (None, "")."""
    for candidate in [text, *variants(text)]:
        fixed = fractions(candidate)
        if found := reader.read(fixed.text):
            return replace(found, text=text), fixed.doubt
    return None, ""
