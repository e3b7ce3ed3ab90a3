"""Running, cycling, rowing, swimming, hybrid and mobility workouts the demo coach shares, and
the demo athlete's own."""

from typing import Any

from .builders import RUN_WARMUP, cardio, lift, workout

ENDURANCE_WORKOUTS: list[dict[str, Any]] = [
    workout(
        "Easy Zone 2 Run",
        "running",
        45,
        "easy",
        ["easy", "aerobic", "zone 2", "base"],
        "Conversational pace; nose breathing if you can.",
        cardio_block=cardio("zone2", 45, "Running", "Heart rate under the top of zone 2."),
    ),
    workout(
        "Long Run",
        "running",
        90,
        "moderate",
        ["long run", "endurance", "aerobic"],
        "The week's long run: steady and relaxed, fuel every 40 minutes.",
        cardio_block=cardio(
            "zone2", 90, "Running", "Last 15 min at marathon effort if it feels good."
        ),
    ),
    workout(
        "5 × 1 km Intervals",
        "running",
        50,
        "hard",
        ["intervals", "speed", "5k", "track"],
        "Five kilometre repeats at 5k pace.",
        cardio_block=cardio(
            "intervals",
            50,
            "Running",
            "15 min warm-up; 5 × 1 km at 5k pace with 2 min jog; 10 min cool-down.",
        ),
        warmup=RUN_WARMUP,
    ),
    workout(
        "Tempo Run",
        "running",
        40,
        "hard",
        ["tempo", "threshold", "10k"],
        "Twenty minutes comfortably hard.",
        cardio_block=cardio(
            "threshold", 40, "Running", "10 min easy, 20 min at threshold, 10 min easy."
        ),
    ),
    workout(
        "Hill Repeats",
        "running",
        45,
        "hard",
        ["hills", "vo2max", "power"],
        "Short, hard uphill efforts for strength and economy.",
        cardio_block=cardio("vo2max", 45, "Running", "8 × 60 s hard uphill, walk or jog down."),
        warmup=RUN_WARMUP,
    ),
    workout(
        "Recovery Jog",
        "running",
        25,
        "easy",
        ["recovery", "easy", "aerobic"],
        "Very easy: slower than you think.",
        cardio_block=cardio("zone2", 25, "Running"),
    ),
    workout(
        "Track 400s",
        "running",
        50,
        "hard",
        ["track", "intervals", "speed", "vo2max"],
        "Twelve laps at 3k pace.",
        cardio_block=cardio("vo2max", 50, "Running", "12 × 400 m at 3k pace, 200 m jog between."),
        warmup=RUN_WARMUP,
    ),
    workout(
        "Sweet Spot 3 × 15",
        "cycling",
        75,
        "moderate",
        ["sweet spot", "ftp", "bike"],
        "Three blocks just under threshold: the best value for FTP.",
        cardio_block=cardio(
            "sweetspot", 75, "Cycling", "3 × 15 min at 88-93% FTP, 5 min easy between."
        ),
    ),
    workout(
        "Zone 2 Endurance Ride",
        "cycling",
        120,
        "easy",
        ["endurance", "zone 2", "bike", "base"],
        "Two steady hours; keep the power even on climbs.",
        cardio_block=cardio("zone2", 120, "Cycling", "56-75% FTP; eat 60 g carbs an hour."),
    ),
    workout(
        "VO2 Max 5 × 4",
        "cycling",
        60,
        "max",
        ["vo2max", "intervals", "bike"],
        "Five hard four-minute efforts.",
        cardio_block=cardio(
            "vo2max", 60, "Cycling", "5 × 4 min at 110-120% FTP, 4 min easy between."
        ),
    ),
    workout(
        "Threshold 2 × 20",
        "cycling",
        70,
        "hard",
        ["threshold", "ftp", "bike"],
        "The classic FTP session.",
        cardio_block=cardio(
            "threshold", 70, "Cycling", "2 × 20 min at 95-100% FTP, 10 min easy between."
        ),
    ),
    workout(
        "Over-Unders",
        "cycling",
        60,
        "hard",
        ["threshold", "lactate", "bike"],
        "Surges above threshold, recovering just below it.",
        cardio_block=cardio(
            "threshold", 60, "Cycling", "3 sets of 4 × (2 min at 95% FTP, 1 min at 105% FTP)."
        ),
    ),
    workout(
        "Rowing 4 × 2000 m",
        "rowing",
        55,
        "hard",
        ["rowing", "erg", "intervals"],
        "Long intervals on the erg at 2k-plus-8 split.",
        cardio_block=cardio(
            "intervals", 55, "Rowing", "4 × 2000 m at 2k pace + 8 s/500 m, 3 min rest."
        ),
    ),
    workout(
        "Steady State Row",
        "rowing",
        40,
        "easy",
        ["rowing", "erg", "aerobic", "zone 2"],
        "Forty minutes at 18-20 strokes a minute.",
        cardio_block=cardio("zone2", 40, "Rowing", "Rate 18-20, long and powerful strokes."),
    ),
    workout(
        "Technique Swim",
        "swimming",
        40,
        "easy",
        ["swim", "technique", "drills"],
        "Drills for a longer, smoother stroke.",
        cardio_block=cardio(
            "zone2",
            40,
            "Swimming",
            "Catch-up, fingertip drag and 6-kick switch drills, 4 × 50 m each.",
        ),
    ),
    workout(
        "Swim CSS Intervals",
        "swimming",
        50,
        "hard",
        ["swim", "threshold", "css"],
        "Repeats at critical swim speed.",
        cardio_block=cardio("threshold", 50, "Swimming", "10 × 100 m at CSS pace, 15 s rest."),
    ),
    workout(
        "Hybrid Engine",
        "conditioning",
        50,
        "hard",
        ["hybrid", "conditioning", "hyrox"],
        "Sled, wall balls and the rower: race-style fitness.",
        exercises=[
            lift("Sled Push", 4, "20 m", "bodyweight on the sled", 90),
            lift("Wall Ball", 4, "20", "9 kg ball", 60),
            lift("Farmer's Carry", 4, "40 m", "2 × 32 kg kettlebells", 60),
        ],
        cardio_block=cardio("intervals", 20, "Rowing", "5 × 500 m hard, 1 min rest."),
    ),
    workout(
        "EMOM 20 Conditioning",
        "conditioning",
        25,
        "hard",
        ["emom", "conditioning", "metcon"],
        "Every minute on the minute for 20 minutes, rotating four stations.",
        exercises=[
            lift("Burpee", 5, "10", "bodyweight", 0),
            lift("Kettlebell Swing", 5, "15", "24 kg kettlebell", 0),
            lift("Box Jump", 5, "8", "60 cm box", 0),
            lift("Rest", 5, "60 s", "none", 0, notes="A full minute off"),
        ],
    ),
    workout(
        "Strength + Zone 2 Finisher",
        "strength",
        70,
        "moderate",
        ["concurrent", "strength", "zone 2"],
        "Lift first, then an easy spin to build the aerobic base.",
        exercises=[
            lift("Back Squat", 4, "6", "RPE 7", 150, warmup_sets=2),
            lift("Bench Press", 4, "6", "RPE 7", 150, warmup_sets=2),
        ],
        cardio_block=cardio("zone2", 20, "Bike"),
    ),
    workout(
        "Hip and Ankle Mobility",
        "mobility",
        20,
        "easy",
        ["mobility", "hips", "ankles", "recovery"],
        "Squat depth starts here.",
        exercises=[
            lift("90/90 Hip Switch", 2, "10", "bodyweight", 30),
            lift("Couch Stretch", 2, "60 s each side", "bodyweight", 15),
            lift("Knee-to-Wall Ankle Rock", 2, "15 each side", "bodyweight", 15),
            lift("Deep Squat Hold", 2, "60 s", "bodyweight", 30),
        ],
    ),
    workout(
        "Thoracic Spine and Shoulder Flow",
        "mobility",
        20,
        "easy",
        ["mobility", "shoulders", "upper back"],
        "For desk days and overhead pressing.",
        exercises=[
            lift("Open Book", 2, "10 each side", "bodyweight", 15),
            lift("Wall Slide", 2, "12", "bodyweight", 15),
            lift("Band Pull-Apart", 3, "20", "light band", 30),
            lift("Foam Roller Thoracic Extension", 2, "60 s", "foam roller", 15),
        ],
    ),
]


ATHLETE_WORKOUTS: list[dict[str, Any]] = [
    workout(
        "My Garage Leg Day",
        "strength",
        55,
        "hard",
        ["legs", "home gym", "squat"],
        "What I can do with the rack in the garage.",
        exercises=[
            lift("Back Squat", 5, "5", "100 kg", 180, warmup_sets=3),
            lift("Romanian Deadlift", 3, "8", "80 kg", 120),
            lift("Step-up", 3, "10 each leg", "2 × 16 kg dumbbells", 60),
        ],
    ),
    workout(
        "Lunch Break Run",
        "running",
        30,
        "easy",
        ["easy", "lunch", "short"],
        "Out and back along the river.",
        cardio_block=cardio("zone2", 30, "Running"),
    ),
    workout(
        "Sunday Long Ride",
        "cycling",
        150,
        "moderate",
        ["long ride", "bike", "weekend"],
        "Café ride with the club, steady pace.",
        cardio_block=cardio("zone2", 150, "Cycling", "Bring two bottles and a bar."),
    ),
    workout(
        "Hotel Gym Push Day",
        "strength",
        40,
        "moderate",
        ["push", "travel", "dumbbell"],
        "For hotel gyms with dumbbells up to 25 kg.",
        exercises=[
            lift("Dumbbell Bench Press", 4, "10", "2 × 25 kg dumbbells", 90),
            lift("Seated Dumbbell Press", 3, "10", "2 × 16 kg dumbbells", 90),
            lift("Push-up", 2, "max", "bodyweight", 60),
        ],
    ),
]
