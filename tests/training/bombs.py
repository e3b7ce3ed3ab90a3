"""Oversized files built in the tests, streaming to disk so the test itself stays small."""

from __future__ import annotations

import datetime
import gzip
from pathlib import Path

MIB = 1024 * 1024
GPX_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gpx version="1.1" creator="tests" xmlns="http://www.topografix.com/GPX/1/1" '
    'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">'
    "<trk><name>Bomb</name><type>running</type><trkseg>\n"
)
GPX_TAIL = "</trkseg></trk></gpx>\n"


def gpx_points(first: int, count: int) -> str:
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return "".join(
        f'<trkpt lat="{48.85 + (i % 1000) * 0.0003:.6f}" lon="{2.35 + (i // 1000) * 1e-5:.6f}">'
        f"<ele>{35 + i % 10}</ele><time>"
        f"{(start + datetime.timedelta(seconds=i)).strftime('%Y-%m-%dT%H:%M:%SZ')}</time>"
        "<extensions><gpxtpx:TrackPointExtension>"
        f"<gpxtpx:hr>{120 + i % 50}</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
        "</trkpt>\n"
        for i in range(first, first + count)
    )


def gzip_gpx_bomb(path: Path, *, mebibytes: int = 96) -> int:
    """A gzipped GPX that expands to exactly ``mebibytes`` MiB of distinct track points (padded
    with blank lines before its closing tags), written in blocks; returns the expanded size."""
    target = mebibytes * MIB
    head, tail = GPX_HEAD.encode(), GPX_TAIL.encode()
    written = 0
    point = 0
    with gzip.open(path, "wb", compresslevel=6) as out:
        out.write(head)
        written += len(head)
        while True:
            block = gpx_points(point, 2000).encode()
            room = target - written - len(tail)
            if len(block) > room:
                block = block[: block.rfind(b"\n", 0, room) + 1]
            if not block:
                break
            out.write(block)
            written += len(block)
            point += 2000
        padding = b"\n" * (target - written - len(tail))
        out.write(padding + tail)
        written += len(padding) + len(tail)
    return written
