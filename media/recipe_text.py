"""A recipe found in the lines read from a photo: title, servings, ingredients, steps, and every
line that fitted none of them, kept as text.

* The **title** is the tallest line above the ingredients (a heading is printed bigger), not a
  "Serves" line, a section heading or a phone's status bar (a clock).
* **Servings**: "Serves 4", "Servings: 4", "Makes 6", "Yield 2".
* **Ingredients**: the lines under an "Ingredients" heading (or, without one, any line that reads
  as one), each read by the nutrition family's line reader (``nutrition.services.line_reader``:
  its unit words and exact known names). A line it can't read goes to ``unread``, never dropped.
* **Steps**: the lines under "Method", "Steps", "Instructions", "Directions" or "Preparation"; a
  line that doesn't start with a number continues the step before it.

Everything else (a line between sections, a caption) is ``unread`` too: the athlete sees it under
the proposal and in the recipe's notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from nutrition.services import LineReader, ReadLine

from . import ocr_text
from .ocr import Line

FLAGS = re.IGNORECASE
INGREDIENTS = re.compile(r"^\W*(ingredients?|you will need|you'?ll need)\W*$", FLAGS)
METHOD = re.compile(r"^\W*(method|steps?|instructions?|directions?|preparation)\W*$", FLAGS)
SERVINGS = re.compile(
    r"\b(?:serves|servings?|makes|yields?|portions?)(?![a-z])\D{0,3}(\d{1,3})", FLAGS
)
STEP_NUMBER = re.compile(r"^\s*(?:step\s*)?(\d{1,2})\s*[.):]\s*", FLAGS)
CLOCK = re.compile(r"^\d{1,2}:\d{2}\b")
MAX_TITLE = 200


@dataclass
class Reading:
    """What was found; ``unread`` holds every line that is none of the others, in page order."""

    title: str = ""
    servings: int | None = None
    ingredients: list[ReadLine] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # lines read with a guess: check them

    def as_json(self) -> dict:
        return {
            "title": self.title,
            "servings": self.servings,
            "ingredients": [
                {"text": r.text, **r.as_args(), "quantity": str(r.quantity)}
                for r in self.ingredients
            ],
            "steps": self.steps,
            "unread": self.unread,
            "checks": self.checks,
        }

    @classmethod
    def from_json(cls, data: dict) -> Reading:
        return cls(
            title=data.get("title", ""),
            servings=data.get("servings"),
            ingredients=[
                ReadLine(
                    text=i["text"],
                    quantity=Decimal(i["quantity"]),
                    unit=i["unit"],
                    ingredient=i["ingredient"],
                    prep_state=i.get("prep_state", ""),
                )
                for i in data.get("ingredients", [])
            ],
            steps=list(data.get("steps", [])),
            unread=list(data.get("unread", [])),
            checks=list(data.get("checks", [])),
        )


def _title(candidates: list[Line]) -> tuple[str, Line | None]:
    usable = [
        line
        for line in candidates
        if not SERVINGS.search(line.text)
        and not CLOCK.match(line.text)
        and not INGREDIENTS.match(line.text)
        and not METHOD.match(line.text)
        and re.search(r"[A-Za-z]{3}", line.text)
    ]
    if not usable:
        return "", None
    tallest = max(usable, key=lambda line: line.height)
    return tallest.text.strip()[:MAX_TITLE], tallest


def _steps(lines: list[str]) -> list[str]:
    steps: list[str] = []
    for text in lines:
        if m := STEP_NUMBER.match(text):
            steps.append(text[m.end() :].strip())
        elif steps:
            steps[-1] = f"{steps[-1]} {text.strip()}"
        else:
            steps.append(text.strip())
    return [s for s in steps if s]


def find_recipe(lines: list[Line], reader: LineReader) -> Reading:
    """The recipe in ``lines`` (reading order, ``media.ocr.lines``)."""
    texts = [line.text for line in lines]
    start = next((n for n, t in enumerate(texts) if INGREDIENTS.match(t)), None)
    method = next((n for n, t in enumerate(texts) if METHOD.match(t)), None)
    reading = Reading()
    # The head (title, servings) ends at the first section; without an ingredients heading, at
    # the first line that reads as an ingredient.
    ends = [n for n in (start, method) if n is not None]
    if start is None:
        ends += [n for n, t in enumerate(texts) if ocr_text.read(t, reader)[0]][:1]
    head_end = min(ends, default=len(lines))
    reading.title, title_line = _title(lines[:head_end])
    method_end = (
        start if start is not None and method is not None and start > method else len(lines)
    )
    for n, line in enumerate(lines):
        if line is title_line or n in (start, method):
            continue
        if n < head_end:
            if reading.servings is None and (m := SERVINGS.search(line.text)):
                reading.servings = int(m.group(1))
            else:
                reading.unread.append(line.text)
        elif method is not None and method < n < method_end:
            continue  # a step, below
        elif (found := ocr_text.read(line.text, reader))[0]:
            reading.ingredients.append(found[0])
            if found[1]:
                reading.checks.append(found[1])
        else:
            reading.unread.append(line.text)
    if method is not None:
        reading.steps = _steps(texts[method + 1 : method_end])
    return reading
