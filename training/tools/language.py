"""The schedule and training families in everyday words, for the offline coach
(``coach.llm.offline.language``): the sentences that move, skip and complete sessions
(``say_schedule``), lighten or realign the plan (``say_lighten``), add a one-off workout
(``say_custom``), and the questions about recent training, fitness, the plan ahead and
comparisons (``say_reads``), sleep and recovery (``say_sleep``), answered in words.

Dates as people write them are ``said_dates``; sessions as people name them ("tomorrow's workout",
"the long run on Sunday", "it") are ``said_sessions``, resolved against the conversation's
program. Every list and rule name starts with ``training_`` / ``tr_``: names are shared by all the
families' grammars."""

from __future__ import annotations

from coach.llm.offline.language import Language

from . import (
    said_dates,
    said_sessions,
    say_custom,
    say_lighten,
    say_reads,
    say_schedule,
    say_sick,
    say_sleep,
)

LEADS = [
    "i need to",
    "i have to",
    "i want to",
    "i'd like to",
    "i would like to",
    "i wanna",
    "i gotta",
    "i'll",
    "i will",
    "can i",
    "could i",
    "can you",
    "could you",
    "can we",
    "could we",
    "would you",
    "will you",
    "please",
    "pls",
    "plz",
    "let's",
    "lets",
    "we need to",
    "i must",
    "i should",
    "go ahead and",
    "just",
    "i'd like you to",
    "i want you to",
    "kindly",
    "i'm going to",
    "i am going to",
    "i'm gonna",
    "gonna",
    "i'll have to",
    "i will have to",
    "i'll need to",
    "i need you to",
    "you can",
    "could you please",
]
# The words before the verb ("can you please …"): a list, looked up by first letter.
LEAD = [(f"{lead}{tail}", lead) for lead in LEADS for tail in ("", " please", " pls", " just")]

LANGUAGE = Language(
    intents=(
        *say_schedule.INTENTS,
        *say_lighten.INTENTS,
        *say_sick.INTENTS,
        *say_custom.INTENTS,
        *say_reads.INTENTS,
        *say_sleep.INTENTS,
    ),
    lists={"training_session": said_sessions.session_names},
    values={
        **said_dates.VALUES,
        **said_sessions.VALUES,
        **say_schedule.VALUES,
        **say_lighten.VALUES,
        **say_custom.VALUES,
        **say_reads.VALUES,
        "training_lead": LEAD,
    },
    ranges=said_dates.RANGES,
    wildcards=(
        "training_reason",
        "training_notes",
        "training_feeling",
        "training_pace",
        "training_why",
    ),
    rules={
        "tr_lead": "{training_lead:lead}",
        "tr_session": said_sessions.session_rule("s"),
        "tr_focus": said_sessions.focus_rule("s"),
        "tr_other_session": said_sessions.other_rule("u"),
        "tr_to_date": said_dates.date_rule("t"),
        "tr_day": said_dates.date_rule("d"),
        "tr_duration": say_custom.DURATION,
    },
)
