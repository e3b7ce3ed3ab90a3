"""One module per file format; ``parse_file`` picks the format from the name and the first bytes
or the CSV header, and returns plain records or raises ``FileFormatError``. Before any parser
runs, ``limits`` checks what the file may hold (its size unzipped, its points) and afterwards the
dates it carries; CSV rows are capped as they are read."""

from __future__ import annotations

from . import fit, garmin_csv, gpx, limits, spotter_csv, strava_csv, tcx
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


def parse_file(name: str, data: bytes) -> Parsed:
    limits.check_size(len(data))
    if name.lower().endswith(".gz"):
        data = limits.gunzip(data)
        name = name[:-3]
    parsed = _parse(name, data)
    limits.check_dates(parsed)
    return parsed


def _parse(name: str, data: bytes) -> Parsed:
    lower = name.lower()
    if not data or data.isspace():  # no stripped copy of a large file
        raise FileFormatError("the file is empty", where="file")
    if lower.endswith(".fit") or data[8:12] == b".FIT":
        limits.check_fit_points(data)
        return fit.parse(name, data)
    if lower.endswith(".gpx"):
        return _xml(gpx, "gpx", name, data)
    if lower.endswith(".tcx"):
        return _xml(tcx, "tcx", name, data)
    if lower.endswith(".csv"):
        parsed = _csv_parser(data)(name, data)
        if not parsed.activities and not parsed.sleep:
            raise FileFormatError("the CSV file has a header but no rows", where="line 2")
        return parsed
    head = data.lstrip()[:400]
    if head.startswith(b"<") and b"<gpx" in head:
        return _xml(gpx, "gpx", name, data)
    if head.startswith(b"<") and b"TrainingCenterDatabase" in head:
        return _xml(tcx, "tcx", name, data)
    raise FileFormatError(f"unknown file type; Spotter reads {FORMATS}", where="file")


def _xml(module, kind: str, name: str, data: bytes) -> Parsed:
    limits.check_xml_points(data, kind)
    return module.parse(name, data)
