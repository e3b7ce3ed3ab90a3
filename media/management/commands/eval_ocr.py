"""Measure the recipe reader on a set of images with their expected readings.

    manage.py eval_ocr [--dir tests/media/fixtures/recipes] [--only pasta --only chili] [--json]

Each ``<name>.jpg`` with a ``<name>.json`` beside it (``title``, ``servings``, ``clean``,
and ``ingredients``: the printed line and the reading expected, ``"quantity unit | ingredient |
prep"``, or null for a line that names no known ingredient and must come back as unread text) is
read the way a sent photo is (``media.images.decode``, ``media.ocr``, ``media.recipe_text``)
and scored per field:

* **title**: the title read, compared without spaces and case (the engine drops spaces);
* **ingredient lines**: a line with a reading is right when a read line has its ingredient, unit
  and quantity (and its prep state, compared without spaces); a null line is right when it is among
  the unread lines and not read as an ingredient: what couldn't be read is visible, not dropped;
* **quantities**: of the lines whose ingredient was found, those with the quantity and unit right;
* **extra**: lines read as an ingredient that the image doesn't have;
* **flagged**: lines read with a guessed amount that the athlete is asked to check
  (``media.ocr_text``: a fraction sign whose slash the engine lost).

Each image's ``set`` (``dev``: used while building the reader; ``held-out``: made after it;
``realistic``: real fonts, phone photos at an angle, JPEG artefacts, cookbook pages) is reported on
its own, each split into clean prints (and screenshots) and the rest.

The time per image is decoding, reading and finding the recipe, the engine already loaded: the
wall time, and the CPU time of the process (all its threads), which other work on a shared
machine doesn't stretch. Every
miss is listed by image, so each failure is visible.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from media import images, ocr
from media.recipe_text import Reading, find_recipe
from nutrition.services import line_reader

DEFAULT_DIR = Path(settings.BASE_DIR) / "tests" / "media" / "fixtures" / "recipes"
SETS = (
    ("dev", "development"),
    ("held-out", "held out (made after the reader)"),
    ("realistic", "realistic (Debian fonts, phone photos, JPEG twice)"),
    ("held-out-after", "held out from the fraction and line fixes (realistic, made after)"),
)


def squeeze(text: str) -> str:
    return "".join(str(text).lower().split())


def expected_line(spec: str) -> tuple[Decimal, str, str, str]:
    amount, ingredient, prep = (part.strip() for part in spec.split("|"))
    quantity, unit = amount.split(" ", 1)
    return Decimal(quantity), unit, ingredient, prep


def score(expected: dict[str, Any], reading: Reading) -> dict[str, Any]:
    got = {r.ingredient: r for r in reading.ingredients}
    unread = [squeeze(line) for line in reading.unread]
    lines_right, found, quantities_right, misses = 0, 0, 0, []
    wanted_names = set()
    for line in expected["ingredients"]:
        printed, spec = line["printed"], line["expected"]
        if spec is None:
            ok = any(squeeze(printed) in u or u in squeeze(printed) for u in unread if u)
            lines_right += ok
            if not ok:
                misses.append(f"unread line not shown: {printed!r}")
            continue
        quantity, unit, ingredient, prep = expected_line(spec)
        wanted_names.add(ingredient)
        read = got.get(ingredient)
        if read is None:
            misses.append(f"not read: {printed!r}")
            continue
        found += 1
        amount_ok = read.quantity == quantity and read.unit == unit
        quantities_right += amount_ok
        if amount_ok and squeeze(read.prep_state) == squeeze(prep):
            lines_right += 1
        else:
            misses.append(
                f"misread: {printed!r} as {read.quantity.normalize():f} {read.unit} "
                f"{read.ingredient}{', ' + read.prep_state if read.prep_state else ''}"
            )
    extra = [r.text for r in reading.ingredients if r.ingredient not in wanted_names]
    misses += [f"extra ingredient: {text!r}" for text in extra]
    title_ok = squeeze(reading.title) == squeeze(expected["title"])
    if not title_ok:
        misses.append(f"title read as {reading.title!r}")
    servings_ok = reading.servings == expected.get("servings")
    if not servings_ok:
        misses.append(f"servings read as {reading.servings!r}")
    return {
        "title": title_ok,
        "title_exact": reading.title == expected["title"],
        "servings": servings_ok,
        "lines": len(expected["ingredients"]),
        "lines_right": lines_right,
        "with_reading": sum(1 for line in expected["ingredients"] if line["expected"]),
        "found": found,
        "quantities_right": quantities_right,
        "extra": len(extra),
        "flagged": len(reading.checks),
        "misses": misses + [f"flagged to check: {c}" for c in reading.checks],
    }


class Command(BaseCommand):
    help = "Measure the recipe photo reader: per-field accuracy and time per image."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dir", default=str(DEFAULT_DIR), help="images with their .json")
        parser.add_argument("--only", action="append", default=[], help="an image's name")
        parser.add_argument("--json", action="store_true", help="print the results as JSON")

    def handle(self, *args, **options) -> None:
        folder = Path(options["dir"])
        cases = sorted(p for p in folder.glob("*.json") if p.with_suffix(".jpg").exists())
        if options["only"]:
            cases = [p for p in cases if p.stem in options["only"]]
        if not cases:
            raise CommandError(f"No images with expectations in {folder}.")
        reader = line_reader()
        if not reader.names:
            raise CommandError("The known-ingredient table is empty: run manage.py migrate first.")
        ocr.engine()  # loaded once, outside the timings
        results = []
        for case in cases:
            expected = json.loads(case.read_text())
            started, cpu = time.perf_counter(), time.process_time()
            try:
                lines = ocr.read_lines(images.decode(case.with_suffix(".jpg").read_bytes()))
                reading = find_recipe(lines, reader)
            except images.PhotoError as exc:
                reading = Reading(unread=[f"failed: {exc}"])
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            kind = expected.get("set", "held-out" if expected.get("held_out") else "dev")
            results.append({"name": case.stem, "style": expected["style"],
                            "clean": expected["clean"], "set": kind,
                            "held_out": expected.get("held_out", False), "seconds": round(seconds, 2),
                            "cpu_seconds": round(cpu, 2),
                            **score(expected, reading)})  # fmt: skip
        if options["json"]:
            self.stdout.write(json.dumps(results, indent=1))
            return
        self._report(results)

    def _report(self, results: list[dict[str, Any]]) -> None:
        out = self.stdout.write
        for r in results:
            out(f"{r['name']:<14} {r['style']:<18} title {'ok' if r['title'] else 'NO':<3} "
                f"lines {r['lines_right']}/{r['lines']}  quantities "
                f"{r['quantities_right']}/{r['found']}  {r['seconds']:.2f} s "
                f"({r['cpu_seconds']:.2f} s CPU)")  # fmt: skip
            for miss in r["misses"]:
                out(f"    - {miss}")
        out("")
        groups = []
        for kind, label in SETS:
            members = [r for r in results if r["set"] == kind]
            groups += [
                (f"{label}: clean prints and screenshots", [r for r in members if r["clean"]]),
                (
                    f"{label}: photos, two columns, low contrast",
                    [r for r in members if not r["clean"]],
                ),
            ]
        groups += [("all clean prints", [r for r in results if r["clean"]]), ("all", results)]
        for label, group in groups:
            if not group:
                continue
            lines = sum(r["lines"] for r in group)
            right = sum(r["lines_right"] for r in group)
            found = sum(r["found"] for r in group)
            amounts = sum(r["quantities_right"] for r in group)
            times = [r["seconds"] for r in group]
            cpu = [r["cpu_seconds"] for r in group]
            out(
                f"{label} ({len(group)} images): titles {sum(r['title'] for r in group)}/"
                f"{len(group)} (exact {sum(r['title_exact'] for r in group)}), servings "
                f"{sum(r['servings'] for r in group)}/{len(group)}, ingredient lines "
                f"{right}/{lines} ({100 * right / lines:.0f} %), quantities {amounts}/{found}, "
                f"extra lines {sum(r['extra'] for r in group)}, flagged to check "
                f"{sum(r['flagged'] for r in group)}; seconds per image median "
                f"{statistics.median(times):.2f}, max {max(times):.2f} (CPU median "
                f"{statistics.median(cpu):.2f}, max {max(cpu):.2f})"
            )
        out(
            f"{settings.MEDIA_OCR_THREADS} OCR threads on {os.cpu_count()} CPUs; load average "
            f"now {os.getloadavg()[0]:.1f} (other work on the machine stretches the wall times)"
        )
