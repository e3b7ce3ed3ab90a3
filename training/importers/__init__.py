"""One module per file format; ``parse_file`` picks the format from the name and the first bytes
or the CSV header, and returns plain records or raises ``FileFormatError``."""

from __future__ import annotations

import gzip
import io

from . import fit, garmin_csv, gpx, spotter_csv, strava_csv, tcx
from .base import ActivityData, FileFormatError, Parsed, SleepData
from .csv_common import header

__all__ = ["ActivityData", "FileFormatError", "Parsed", "SleepData", "parse_file"]

FORMATS = "FIT, GPX, TCX (also gzipped), Strava activities.csv, Garmin Activities.csv, Spotter CSV, sleep CSV"


def _csv_parser(data: bytes):
    names = [h.lower() for h in header(data)]
    if names == spotter_csv.ACTIVITY_HEADER:
        return spotter_csv.parse_activities
    if names == spotter_csv.SLEEP_HEADER:
        return spotter_csv.parse_sleep
    columns = header(data)
    if strava_csv.is_strava(columns):
        return strava_csv.parse
    if garmin_csv.is_garmin(columns):
        return garmin_csv.parse
    raise FileFormatError(
        "unknown CSV header; expected Spotter's "
        f"'{','.join(spotter_csv.ACTIVITY_HEADER)}', the sleep "
        f"'{','.join(spotter_csv.SLEEP_HEADER)}', Strava's activities.csv or Garmin's "
        "Activities.csv",
        where="line 1",
    )


MAX_UNZIPPED = 100 * 1024 * 1024


def _gunzip(name: str, data: bytes) -> bytes:
    """A ``.gz`` file (Strava's export gzips its FIT, GPX and TCX files), at most 100 MB."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(MAX_UNZIPPED + 1)
    except (OSError, EOFError) as exc:
        raise FileFormatError(f"not a readable gzip file ({exc})", where="file") from exc
    if len(out) > MAX_UNZIPPED:
        raise FileFormatError("unzips to more than 100 MB", where="file")
    return out


def parse_file(name: str, data: bytes) -> Parsed:
    if name.lower().endswith(".gz"):
        data = _gunzip(name, data)
        name = name[:-3]
    lower = name.lower()
    if not data.strip():
        raise FileFormatError("the file is empty", where="file")
    if lower.endswith(".fit") or data[8:12] == b".FIT":
        return fit.parse(name, data)
    if lower.endswith(".gpx"):
        return gpx.parse(name, data)
    if lower.endswith(".tcx"):
        return tcx.parse(name, data)
    if lower.endswith(".csv"):
        parsed = _csv_parser(data)(name, data)
        if not parsed.activities and not parsed.sleep:
            raise FileFormatError("the CSV file has a header but no rows", where="line 2")
        return parsed
    head = data.lstrip()[:400]
    if head.startswith(b"<") and b"<gpx" in head:
        return gpx.parse(name, data)
    if head.startswith(b"<") and b"TrainingCenterDatabase" in head:
        return tcx.parse(name, data)
    raise FileFormatError(f"unknown file type; Spotter reads {FORMATS}", where="file")
