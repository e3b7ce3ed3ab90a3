"""The fixed words of the program family's everyday sentences (``language``): ordinals, where
in a session ("at the end", "first thing"), cardio types and sports, units, heavier/lighter, the
kinds of week people add; each a list of ``(words, value)`` pairs for the templates."""

from __future__ import annotations

from .nl_changes import SECONDS, UNITS

ORDINALS = [
    (w, n)
    for n, words in enumerate(
        (
            ("first", "1st"),
            ("second", "2nd"),
            ("third", "3rd"),
            ("fourth", "4th"),
            ("fifth", "5th"),
            ("sixth", "6th"),
            ("seventh", "7th"),
            ("eighth", "8th"),
        ),
        start=1,
    )
    for w in words
] + [("last", -1), ("final", -1)]
ENDS = [
    ("at the end", "end"),
    ("to the end", "end"),
    ("to the bottom", "end"),
    ("at the bottom", "end"),
    ("last", "end"),
    ("at the start", "start"),
    ("to the start", "start"),
    ("at the beginning", "start"),
    ("to the beginning", "start"),
    ("to the top", "start"),
    ("at the top", "start"),
    ("to the front", "start"),
    ("first thing", "start"),
    ("first", "start"),
]
CARDIO = [
    ("zone 2", "zone2"),
    ("zone two", "zone2"),
    ("z2", "zone2"),
    ("zone2", "zone2"),
    ("easy", "zone2"),
    ("aerobic", "zone2"),
    ("interval", "intervals"),
    ("intervals", "intervals"),
    ("hiit", "intervals"),
    ("sweet spot", "sweetspot"),
    ("sweetspot", "sweetspot"),
    ("threshold", "threshold"),
    ("tempo", "threshold"),
    ("vo2 max", "vo2max"),
    ("vo2max", "vo2max"),
]
MODALITY = [
    *((w, "Running") for w in ("run", "running", "jog", "jogging")),
    *((w, "Cycling") for w in ("ride", "cycling", "bike", "biking", "spin", "cycle")),
    *((w, "Swimming") for w in ("swim", "swimming")),
    *((w, "Rowing") for w in ("row", "rowing", "erg")),
    *((w, "Walking") for w in ("walk", "walking", "hike")),
]

# "From now on": every week from the current one ("next": from the next one), whatever day is
# named with it.
ONGOING = [
    (w, True)
    for w in (
        "from now on",
        "from here on",
        "from here on out",
        "going forward",
        "moving forward",
        "from this week on",
        "from today on",
        "for the rest of the program",
        "for the rest of the block",
        "for the rest of the plan",
        "every week",
        "each week",
        "in every week",
        "for all weeks",
        "in all weeks",
        "all weeks",
        "permanently",
        "for good",
    )
] + [
    (w, "next")
    for w in (
        "from next week on",
        "from next week onwards",
        "from next week onward",
        "from next week",
        "starting next week",
        "starting from next week",
        "as of next week",
    )
]
# More or less weight, the load left unsaid: a question whose chips name loads.
WEIGHT_CHANGE = [
    *(
        (w, 1)
        for w in (
            "more weight",
            "more load",
            "add weight",
            "add some weight",
            "up the weight",
            "raise the weight",
            "increase the weight",
            "bump the weight",
            "bump up the weight",
        )
    ),
    *(
        (w, -1)
        for w in (
            "less weight",
            "less load",
            "lower the weight",
            "drop the weight",
            "reduce the weight",
            "decrease the weight",
            "take weight off",
            "take some weight off",
        )
    ),
]

VALUES = {
    "ongoing": ONGOING,
    "weight_change": WEIGHT_CHANGE,
    "to_next": [("next week", True), ("the next week", True), ("the week after", True)],
    "this_session": [
        ("this workout", True),
        ("this session", True),
        ("the workout", True),
        ("the session", True),
    ],
    "pronoun": [
        (w, True)
        for w in ("it", "that", "that exercise", "this exercise", "them", "those", "that one")
    ],
    "ordinal": ORDINALS,
    "other_ordinal": ORDINALS,
    "end": ENDS,
    "side": [("after", "after"), ("before", "before"), ("ahead of", "before")],
    "unit": UNITS,
    "rest_unit": SECONDS,
    "minute_unit": [
        ("minute", 1),
        ("minutes", 1),
        ("min", 1),
        ("mins", 1),
        ("hour", 60),
        ("hours", 60),
    ],
    "hour": [
        ("an hour", 60),
        ("one hour", 60),
        ("half an hour", 30),
        ("an hour and a half", 90),
    ],
    "cardio": CARDIO,
    "modality": MODALITY,
    # "too heavy": it should be lighter
    "too": [("heavy", -1), ("hard", -1), ("light", 1), ("easy", 1)],
    "direction": [
        ("heavier", 1),
        ("harder", 1),
        ("lighter", -1),
        ("easier", -1),
    ],
    "phase_kind": [
        ("deload", "Deload"),
        ("recovery", "Recovery"),
        ("taper", "Taper"),
        ("testing", "Testing"),
        ("test", "Testing"),
    ],
}
