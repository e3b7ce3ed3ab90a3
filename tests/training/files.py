"""Activity and sleep files written in the tests as text: GPX, TCX and CSV (FIT files are written by
``training.fit_writer``, which the import benchmark shares)."""

from __future__ import annotations

import datetime

from training.fit_writer import START


def gpx(*, start: datetime.datetime = START, points: int = 120, hr: int = 140) -> bytes:
    rows = []
    for i in range(points):
        moment = (start + datetime.timedelta(seconds=10 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(
            f'<trkpt lat="{48.85 + i * 0.0003:.6f}" lon="2.35"><ele>{35 + i % 10}</ele>'
            f"<time>{moment}</time><extensions><gpxtpx:TrackPointExtension>"
            f"<gpxtpx:hr>{hr + i % 7}</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
            "</trkpt>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<gpx version="1.1" creator="tests" xmlns="http://www.topografix.com/GPX/1/1" '
        'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">'
        "<trk><name>Morning Run</name><type>running</type><trkseg>"
        + "".join(rows)
        + "</trkseg></trk></gpx>"
    ).encode()


def tcx(*, start: datetime.datetime = START, points: int = 60, hr: int = 130) -> bytes:
    iso = start.strftime("%Y-%m-%dT%H:%M:%SZ")
    trackpoints = "".join(
        "<Trackpoint><Time>"
        + (start + datetime.timedelta(seconds=30 * i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        + f"</Time><AltitudeMeters>{50 + i % 5}</AltitudeMeters>"
        f"<DistanceMeters>{i * 250}</DistanceMeters>"
        f"<HeartRateBpm><Value>{hr + i % 5}</Value></HeartRateBpm>"
        f"<Extensions><ns3:TPX><ns3:Speed>8.3</ns3:Speed><ns3:Watts>{180 + i % 10}</ns3:Watts>"
        "</ns3:TPX></Extensions></Trackpoint>"
        for i in range(points)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" '
        'xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">'
        f'<Activities><Activity Sport="Biking"><Id>{iso}</Id><Lap StartTime="{iso}">'
        "<TotalTimeSeconds>1800</TotalTimeSeconds><DistanceMeters>15000</DistanceMeters>"
        "<Calories>500</Calories><AverageHeartRateBpm><Value>132</Value></AverageHeartRateBpm>"
        "<MaximumHeartRateBpm><Value>150</Value></MaximumHeartRateBpm>"
        f"<Track>{trackpoints}</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
    ).encode()


SPOTTER_HEADER = "date,sport,name,duration_s,distance_m,avg_hr,max_hr,elevation_m,load"
SLEEP_HEADER = "date,duration_min,score,resting_hr,hrv"


def spotter_csv(rows: list[str]) -> bytes:
    return ("\n".join([SPOTTER_HEADER, *rows]) + "\n").encode()


def sleep_csv(rows: list[str]) -> bytes:
    return ("\n".join([SLEEP_HEADER, *rows]) + "\n").encode()


STRAVA_HEADER = (
    "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,"
    "Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,"
    "Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance,Max Speed,"
    "Average Speed,Elevation Gain,Elevation Loss,Elevation Low,Elevation High,Max Grade,"
    "Average Grade,Average Positive Grade,Average Negative Grade,Max Cadence,Average Cadence,"
    "Max Heart Rate,Average Heart Rate,Max Watts,Average Watts,Calories,Max Temperature,"
    "Average Temperature,Relative Effort,Total Work,Number of Runs,Uphill Time,Downhill Time,"
    "Other Time,Perceived Exertion,Type,Start Time,Weighted Average Power"
)


def strava_row(
    *,
    id_: int,
    date: str,
    name: str,
    type_: str,
    elapsed: int,
    moving: int,
    metres: float,
    avg_hr: str = "",
    max_hr: str = "",
    watts: str = "",
    np_: str = "",
    rpe: str = "",
) -> str:
    cells = [""] * 47
    cells[0], cells[1], cells[2], cells[3] = str(id_), f'"{date}"', f'"{name}"', type_
    cells[5], cells[6], cells[7] = str(elapsed), f"{metres / 1000:.2f}", max_hr
    cells[15], cells[16], cells[17] = f"{elapsed}.0", f"{moving}.0", f"{metres:.1f}"
    cells[19], cells[20] = f"{metres / moving:.3f}", "55.0"
    cells[30], cells[31], cells[33], cells[34] = max_hr, avg_hr, watts, "612"
    cells[43], cells[46] = rpe, np_
    return ",".join(cells)


def strava_csv(rows: list[str]) -> bytes:
    return ("\n".join([STRAVA_HEADER, *rows]) + "\n").encode()


GARMIN_EN_HEADER = (
    "Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR,Max HR,Aerobic TE,"
    "Avg Pace,Total Ascent,Training Stress Score®,Avg Power,Moving Time,Elapsed Time"
)
GARMIN_DE_HEADER = (
    "Aktivitätstyp,Datum,Favorit,Titel,Distanz,Kalorien,Zeit,Ø Herzfrequenz,"
    "Maximale Herzfrequenz,Aerober TE,Ø Pace,Anstieg gesamt,Training Stress Score®,"
    "Ø Leistung,Bewegungszeit,Verstrichene Zeit"
)


def garmin_csv(header: str, rows: list[str]) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()
