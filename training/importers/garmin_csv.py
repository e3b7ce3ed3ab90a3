"""Garmin Connect's ``Activities.csv`` export, in any of its usual languages.

Headers are matched by name in English, German, French, Spanish, Portuguese, Italian and Dutch
(accents and case ignored). ``--`` means empty. Numbers use the language's separators: English
writes ``1,234.5``, the others ``1.234,5`` (French ``1 234,5``). Times are ``hh:mm:ss``. Distance
is in kilometres, except for swims, where Garmin writes metres. Dates are local
(``2026-11-20 07:12:34``), read in the athlete's time zone.
"""

from __future__ import annotations

import datetime

from .base import ActivityData, FileFormatError, Parsed, fold, sport_from_text
from .csv_common import clock, number, rows

COLUMNS = {
    "type": (
        "activity type",
        "aktivitatstyp",
        "type d'activite",
        "tipo de actividad",
        "tipo de atividade",
        "tipo di attivita",
        "activiteittype",
    ),
    "date": ("date", "datum", "fecha", "data"),
    "title": ("title", "titel", "titre", "titulo", "titolo"),
    "distance": ("distance", "distanz", "distancia", "distancia", "distanza", "afstand"),
    "calories": ("calories", "kalorien", "calorias", "calorie", "calorieen"),
    "time": ("time", "zeit", "duree", "tiempo", "tempo", "tijd"),
    "avg_hr": (
        "avg hr",
        "o herzfrequenz",
        "ø herzfrequenz",
        "frequence cardiaque moyenne",
        "fc media",
        "fc medio",
        "gem. hartslag",
        "fc moyenne",
    ),
    "max_hr": (
        "max hr",
        "maximale herzfrequenz",
        "max. herzfrequenz",
        "frequence cardiaque maximale",
        "fc maxima",
        "fc max",
        "max. hartslag",
    ),
    "ascent": (
        "total ascent",
        "anstieg gesamt",
        "ascension totale",
        "ascenso total",
        "subida total",
        "salita totale",
        "totale stijging",
    ),
    "avg_power": (
        "avg power",
        "o leistung",
        "ø leistung",
        "puissance moyenne",
        "potencia media",
        "potencia media",
        "potenza media",
        "gem. vermogen",
    ),
    "norm_power": ("normalized power® (np®)", "normalized power (np)", "np"),
    "tss": ("training stress score®", "training stress score"),
    "moving": (
        "moving time",
        "bewegungszeit",
        "temps de deplacement",
        "tiempo en movimiento",
        "tempo em movimento",
        "tempo in movimento",
    ),
    "elapsed": (
        "elapsed time",
        "verstrichene zeit",
        "temps ecoule",
        "tiempo transcurrido",
        "tempo decorrido",
        "tempo trascorso",
    ),
}
ENGLISH_MARKERS = {"activity type", "title", "avg hr"}


def _index(header: list[str]) -> dict[str, int]:
    folded = [fold(h) for h in header]
    found: dict[str, int] = {}
    for key, names in COLUMNS.items():
        for position, name in enumerate(folded):
            if name in {fold(n) for n in names}:
                found[key] = position
                break
    return found


def is_garmin(header: list[str]) -> bool:
    found = _index(header)
    return "type" in found and "date" in found and ("time" in found or "distance" in found)


def parse(name: str, data: bytes) -> Parsed:
    table = rows(data)
    header = [cell.strip() for cell in table[0]]
    columns = _index(header)
    english = bool(ENGLISH_MARKERS & {fold(h) for h in header})
    decimal, thousands = (".", ",") if english else (",", ".")
    parsed = Parsed(format="garmin-csv")
    for line, row in enumerate(table[1:], start=2):

        def cell(key: str, *, row=row) -> str:
            index = columns.get(key)
            return row[index].strip() if index is not None and index < len(row) else ""

        def num(key: str, low: float, high: float, *, line=line):
            return number(
                cell(key),
                field=header[columns[key]] if key in columns else key,
                line=line,
                low=low,
                high=high,
                decimal=decimal,
                thousands=thousands,
            )

        def whole(key: str, low: float, high: float) -> int | None:
            value = num(key, low, high)
            return None if value is None else round(value)

        try:
            start = datetime.datetime.fromisoformat(cell("date"))
        except ValueError as exc:
            raise FileFormatError(
                f"date {cell('date')!r} is not like 2026-11-20 07:12:34", where=f"line {line}"
            ) from exc
        sport = sport_from_text(cell("type"))
        distance = num("distance", 0, 1e6)
        if distance is not None and sport != "SWIMMING":
            distance *= 1000
        elapsed = clock(cell("elapsed"), field="Elapsed Time", line=line)
        duration = clock(cell("time"), field="Time", line=line)
        moving = clock(cell("moving"), field="Moving Time", line=line) or duration
        parsed.activities.append(
            ActivityData(
                sport=sport,
                start=start,
                name=cell("title")[:200],
                moving_s=moving,
                elapsed_s=elapsed or duration,
                distance_m=round(distance, 1) if distance is not None else None,
                calories=whole("calories", 0, 50_000),
                avg_hr=whole("avg_hr", 0, 250),
                max_hr=whole("max_hr", 0, 250),
                elevation_gain_m=num("ascent", 0, 20_000),
                avg_power_w=whole("avg_power", 0, 3000),
                normalized_power_w=whole("norm_power", 0, 3000),
                file_load=num("tss", 0, 2000),
                avg_speed_mps=round(distance / moving, 3) if distance and moving else None,
            )
        )
    return parsed
