"""The wellness family's words for the offline coach (``language``): moods in words and as a
number on the log's five steps, the places care happens and the verbs of an injury, and the spans
and kinds of the wellness log people ask for."""

from __future__ import annotations

from . import said


def _number_words(number: int) -> list[str]:
    return [w for w, n in said.NUMBER_WORDS.items() if n == number]


MOODS = [
    *((w, "great") for w in ("great", "amazing", "fantastic", "awesome", "excellent", "brilliant")),
    *((w, "great") for w in ("incredible", "on top of the world", "really good", "very good")),
    *((w, "good") for w in ("good", "fine", "well", "happy", "positive", "pretty good", "solid")),
    *((w, "okay") for w in ("ok", "okay", "alright", "all right", "meh", "so-so", "so so")),
    *((w, "okay") for w in ("average", "not bad", "not too bad", "not great", "fine i guess")),
    *((w, "poor") for w in ("down", "bad", "low", "sad", "awful", "terrible", "rough", "crap")),
    *((w, "poor") for w in ("miserable", "depressed", "anxious", "not good", "not well", "lousy")),
    *((w, "poor") for w in ("not ok", "not okay", "hopeless", "horrible", "like crap", "shit")),
    *((w, "poor") for w in ("not so good", "not too good", "really bad", "really down", "upset")),
]


# A mood given as a number on the log's five steps ("mood 2", "log my mood as 4", "a 3 out of 5"):
# 1 and 2 poor, 3 okay, 4 good, 5 great. A number is never the crisis path: crisis is words.
_SCORE_MOODS = {1: "poor", 2: "poor", 3: "okay", 4: "good", 5: "great"}
MOOD_SCORES = [
    (words, mood)
    for number, mood in _SCORE_MOODS.items()
    for words in (str(number), f"{number}/5", f"{number} / 5", *_number_words(number))
]
# A mood on a ten-point scale ("mood 7/10", "a 3 out of 10", "mood: 8"), on the same four steps:
# half the score, rounded up, read as above (1-4 poor, 5-6 okay, 7-8 good, 9-10 great). A bare
# 6 to 10 can only be out of ten; a bare 1 to 5 stays on the five steps (``MOOD_SCORES``).
_TEN_MOODS = {n: _SCORE_MOODS[(n + 1) // 2] for n in range(1, 11)}
MOOD_TENS = [
    (words, mood)
    for number, mood in _TEN_MOODS.items()
    for said in (str(number), *_number_words(number))
    for words in (
        f"{said}/10",
        f"{said} / 10",
        f"{said} out of 10",
        f"{said} out of ten",
        *((said,) if number > 5 else ()),
    )
]


CARE_PLACES = [
    *((w, "physio") for w in ("physio", "physiotherapist", "physical therapist", "pt")),
    *((w, "physio") for w in ("physiotherapy", "physical therapy", "sports massage", "chiro")),
    *((w, "physio") for w in ("chiropractor", "osteo", "osteopath", "massage therapist")),
    *((w, "visit") for w in ("doctor", "doc", "gp", "hospital", "clinic", "er", "a&e")),
    *((w, "visit") for w in ("emergency room", "dentist", "specialist", "surgeon", "nurse")),
    *((w, "visit") for w in ("cardiologist", "orthopedist", "sports doctor", "urgent care")),
    *((w, "physio") for w in ("massage", "deep tissue massage", "acupuncture", "dry needling")),
]
# How a visit is told once it has happened: "physio appointment went well", "the doctor cleared
# me to run" (a visit to come or cancelled is no record: ``care``).
TOLD_VERBS = (
    "went",
    "was",
    "were",
    "has been",
    "helped",
    "felt",
    "sorted me out",
    "cleared me",
    "signed me off",
    "gave me",
    "worked on",
)
# The places as the grammar reads them: also with a possessive or a plural typed without its
# apostrophe ("doctors appointment", "physio's advice"); the title keeps the place's own word.
CARE_PLACE_FORMS = [
    *CARE_PLACES,
    *((f"{w}{end}", kind) for w, kind in CARE_PLACES if " " not in w for end in ("s", "'s")),
]
# How people say they got hurt: the grammar's injury sentences and the words the care record's
# stated-intent guard accepts (``writes``: "pulled my hamstring" states an injury).
INJURY_VERBS = (
    "hurt",
    "injured",
    "sprained",
    "strained",
    "pulled",
    "tweaked",
    "twisted",
    "rolled",
    "tore",
    "torn",
    "broke",
    "broken",
    "jammed",
    "banged",
    "bruised",
    "dislocated",
    "busted",
)
# The parts of a body an injury sentence names ("rolled my ankle", "tweaked my lower back"): an
# injury is a verb and one of these, so "hurt my feelings" and "pulled my weight" are none.
BODY_PARTS = (
    *[
        "ankle",
        "ankles",
        "wrist",
        "wrists",
        "knee",
        "knees",
        "foot",
        "feet",
        "toe",
        "toes",
        "finger",
        "fingers",
        "thumb",
        "hand",
        "hands",
        "elbow",
        "elbows",
        "shoulder",
        "shoulders",
        "neck",
        "back",
        "hip",
        "hips",
        "groin",
        "hamstring",
        "hamstrings",
        "hammy",
        "quad",
        "quads",
        "calf",
        "calves",
        "shin",
        "shins",
        "achilles",
        "glute",
        "glutes",
        "acl",
        "mcl",
        "meniscus",
        "chest",
        "pec",
        "pecs",
        "rib",
        "ribs",
        "ab",
        "abs",
        "oblique",
        "obliques",
        "bicep",
        "biceps",
        "tricep",
        "triceps",
        "forearm",
        "forearms",
        "lat",
        "lats",
        "trap",
        "traps",
        "head",
        "nose",
        "jaw",
        "arch",
        "heel",
        "heels",
        "adductor",
        "adductors",
        "leg",
        "arm",
        "knuckle",
        "knuckles",
        "collarbone",
        "tailbone",
        "spine",
    ],
    "big toe",
    "lower back",
    "upper back",
    "mid back",
    "achilles tendon",
    "hip flexor",
    "hip flexors",
    "rotator cuff",
    "plantar fascia",
    "it band",
)
# "rolled" is an injury only of a joint that rolls over ("rolled my ankle"); "rolled my quads" is
# foam rolling.
ROLLED_JOINTS = ("ankle", "ankles", "wrist", "wrists", "knee", "knees", "foot", "feet")


SPANS = [
    ("today", 1),
    ("this morning", 1),
    ("yesterday", 2),
    ("since yesterday", 2),
    ("this week", 7),
    ("last week", 14),  # all of last week, as "yesterday" is 2
    ("this past week", 7),
    ("the last week", 7),
    ("the past week", 7),
    ("lately", 7),
    ("recently", 7),
    ("this month", 30),
    ("the last month", 30),
    ("the past month", 30),
    ("the last two weeks", 14),
    ("the past two weeks", 14),
    ("the last fortnight", 14),
    ("the past fortnight", 14),
    ("a fortnight", 14),
    ("the last few days", 3),
    ("the past few days", 3),
    ("the last couple of days", 2),
    ("the past couple of days", 2),
    ("the last 3 months", 90),
    ("the past 3 months", 90),
    ("the last year", 90),
    ("the past year", 90),
]
LOG_KINDS = [
    ("medication", "medication"),
    ("medications", "medication"),
    ("meds", "medication"),
    ("supplements", "medication"),
    ("supplement", "medication"),
    ("medicine", "medication"),
    ("medicines", "medication"),
    ("pills", "medication"),
    ("med", "medication"),
    ("mood", "mood"),
    ("moods", "mood"),
    ("readiness", "readiness"),
    ("care", "care"),
    ("care records", "care"),
    ("wellness", "all"),
]


# A pain that has lasted ("my shoulder's been hurting since tuesday", "ankle's been sore for 3
# days"): the words people use, each with the word the record's title uses ("Shoulder pain").
PAIN_WORDS = [
    *(
        (w, "pain")
        for w in (
            "hurting",
            "hurts",
            "aching",
            "aches",
            "achy",
            "painful",
            "killing me",
            "bugging me",
            "bothering me",
            "acting up",
            "playing up",
            "giving me trouble",
            "giving me grief",
            "throbbing",
            "sore as hell",
            "niggly",
        )
    ),
    *((w, "soreness") for w in ("sore", "tender")),
    *((w, "stiffness") for w in ("stiff",)),
    *((w, "tightness") for w in ("tight",)),
    *((w, "swelling") for w in ("swollen",)),
]
# Muscles sore in the plural are training soreness (DOMS), not an injury: "my quads have been
# sore since monday" is no care record ("my left calf has been hurting since monday" is one).
SORE_MUSCLES = frozenset(
    (
        "quads",
        "hamstrings",
        "calves",
        "glutes",
        "lats",
        "traps",
        "abs",
        "obliques",
        "pecs",
        "biceps",
        "triceps",
        "forearms",
        "adductors",
        "hip flexors",
    )
)

# The words that state a care record for the stated-intent guard (``writes``), besides the injury
# verbs: the places and sessions ("physio appointment went well", "got a massage") and a pain
# said to have lasted ("my shoulder's been hurting since tuesday"; "my knee is swollen" is a
# symptom, and states none).
CARE_WORDS = tuple(
    dict.fromkeys(
        (
            "physio",
            "doctor",
            "hospital",
            "clinic",
            "been having",
            *(w for w, _ in CARE_PLACES if " " not in w and len(w) > 2),  # not "er", "pt"
            # a pain said to have lasted, never the symptom alone ("my knee is swollen")
            *(f"{lasted} {w}" for w, _ in PAIN_WORDS for lasted in ("been", "keeps", "kept")),
        )
    )
)
