"""The text on a photo, read by a local engine, in reading order.

RapidOCR (``rapidocr-onnxruntime``: PaddleOCR's PP-OCRv4 detection and recognition models run by
onnxruntime, the models inside the wheel, no network) finds the text boxes and reads each one.
The engine is loaded once per worker process (about a second) and runs with
``MEDIA_OCR_THREADS`` threads, so one read doesn't take every core of a shared machine.

``lines`` puts the boxes in reading order: boxes on one baseline join into one line, and a page
in two columns (a cookbook: ingredients on the left, the method on the right) is read as what
runs across the top, then the left column, then the right one.
"""

from __future__ import annotations

import statistics
import threading
import unicodedata
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from PIL import Image

_engine = None
_engine_lock = threading.Lock()
_run_lock = threading.Lock()  # one read at a time per process: the threads are MEDIA_OCR_THREADS


@dataclass(frozen=True)
class Box:
    """A text box: its upright bounds and, for a box the engine found slanted (a photo at an
    angle), the height of the text and its centre line's y at the box's left and right ends."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    score: float
    y_left: float | None = None
    y_right: float | None = None
    text_height: float | None = None

    @property
    def height(self) -> float:
        return self.text_height or (self.y1 - self.y0)

    @property
    def middle(self) -> float:
        return (self.y0 + self.y1) / 2

    def centre_at(self, x: float) -> float:
        """The y of the box's centre line at ``x`` (extended past its ends)."""
        if self.y_left is None or self.y_right is None or self.x1 <= self.x0:
            return self.middle
        return self.y_left + (x - self.x0) * (self.y_right - self.y_left) / (self.x1 - self.x0)

    @classmethod
    def from_corners(cls, corners, text: str, score: float) -> Box:
        """From the engine's four corners (upper left, upper right, lower right, lower left)."""
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = ((float(x), float(y)) for x, y in corners)
        return cls(
            min(ax, bx, cx, dx), min(ay, by, cy, dy), max(ax, bx, cx, dx), max(ay, by, cy, dy),
            text, score, y_left=(ay + dy) / 2, y_right=(by + cy) / 2,
            text_height=((dy - ay) + (cy - by)) / 2,
        )  # fmt: skip


@dataclass(frozen=True)
class Line:
    text: str
    height: float
    score: float


def engine():
    global _engine
    with _engine_lock:
        if _engine is None:
            from rapidocr_onnxruntime import RapidOCR  # loaded on first use (about a second)

            threads = settings.MEDIA_OCR_THREADS
            _engine = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)
        return _engine


def read_boxes(image: Image.Image) -> list[Box]:
    """Every text box the engine finds, with what it reads in it."""
    pixels = np.asarray(image.convert("RGB"))[:, :, ::-1]  # the engine takes OpenCV's BGR
    with _run_lock:
        found, _elapsed = engine()(np.ascontiguousarray(pixels), use_cls=False)
    boxes = []
    for corners, text, score in found or []:
        # NFKC: the recognition model was trained on Chinese and English and writes some
        # punctuation full-width ("，" for ","); the compatibility form is the ASCII one.
        text = unicodedata.normalize("NFKC", text).strip()
        if text:
            boxes.append(Box.from_corners(corners, text, float(score)))
    return boxes


def _split(boxes: list[Box], width: float) -> float | None:
    """An x where the page divides into two columns of at least three boxes each: the widest
    gap no box covers (a box across most of the page, a heading, is left out of the search)."""
    narrow = sorted((b for b in boxes if b.x1 - b.x0 < 0.6 * width), key=lambda b: b.x0)
    best, reach = None, None
    for box in narrow:
        if reach is not None and box.x0 > reach:
            left = sum(1 for b in narrow if b.x1 <= reach)
            right = sum(1 for b in narrow if b.x0 >= box.x0)
            gap = box.x0 - reach
            if left >= 3 and right >= 3 and (best is None or gap > best[0]):
                best = (gap, (reach + box.x0) / 2)
        reach = box.x1 if reach is None else max(reach, box.x1)
    return best[1] if best else None


def _same_row(row: list[Box], box: Box, typical: float) -> bool:
    """Whether ``box`` continues ``row``: its centre is within half a line of the centre line of
    the row's widest box, extended to it (so a slanted line's box, taller than its text, doesn't
    swallow the line under it)."""
    widest = max(row, key=lambda b: b.x1 - b.x0)
    x = (box.x0 + box.x1) / 2
    return abs(box.centre_at(x) - widest.centre_at(x)) < min(typical, box.height) / 2


def _rows(boxes: list[Box]) -> list[Line]:
    if not boxes:
        return []
    typical = statistics.median(b.height for b in boxes)
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: b.middle):
        if rows and _same_row(rows[-1], box, typical):
            rows[-1].append(box)
        else:
            rows.append([box])
    return [
        Line(
            text=" ".join(b.text for b in sorted(row, key=lambda b: b.x0)),
            height=max(b.height for b in row),
            score=min(b.score for b in row),
        )
        for row in rows
    ]


def lines(boxes: list[Box]) -> list[Line]:
    """The boxes as lines in reading order (see the module's docstring)."""
    if not boxes:
        return []
    width = max(b.x1 for b in boxes) - min(b.x0 for b in boxes)
    split = _split(boxes, width)
    if split is None:
        return _rows(boxes)
    right = [b for b in boxes if b.x0 >= split]
    top = min(b.y0 for b in right)
    header = [b for b in boxes if b.y1 <= top or (b.x0 < split < b.x1)]
    rest = [b for b in boxes if b not in header]
    return (
        _rows(header)
        + _rows([b for b in rest if b.x1 <= split])
        + _rows([b for b in rest if b.x0 >= split])
    )


def read_lines(image: Image.Image) -> list[Line]:
    return lines(read_boxes(image))
