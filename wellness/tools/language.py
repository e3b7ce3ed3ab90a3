"""The wellness family in everyday words (``coach.llm.offline.language``).

Two declarations: ``CRISIS`` (``wellness.tools.crisis``: crisis language in free text is the
crisis path, whatever else the sentence holds) and ``EVERYDAY``: what the athlete took (only as a statement: "I took", "just had 400 mg", "log 400
mg ibuprofen"; the guardrails check the words again before anything is written, and a plan, a
wish or a question logs nothing), how they feel, how they slept and how sore and stressed they
are, reminders with a time and days, visits and injuries, and reads of the log and reminders.
The details (a dose, a time, weekdays, a day, readiness words) are read by ``said``; a detail a
tool needs and the sentence doesn't give is asked, never guessed."""

from __future__ import annotations

import re

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import (
    Ask,
    Intent,
    Language,
    NotMeant,
    Slots,
    message_of,
    rest_of_message,
)

from . import said
from .care import care, lasting_pain
from .crisis import CRISIS
from .offline import SUPPLEMENTS
from .taken import medicine
from .words import (
    BODY_PARTS,
    CARE_PLACE_FORMS,
    INJURY_VERBS,
    LOG_KINDS,
    MOOD_SCORES,
    MOOD_TENS,
    MOODS,
    PAIN_WORDS,
    SPANS,
    TOLD_VERBS,
)
from .writes import TAKEN_THINGS, days_text

# --- mood and readiness ---------------------------------------------------------------------------


def _mood(slots: Slots) -> Parsed:
    mood = slots.get("mood") or slots.get("mood_score") or slots.get("mood_ten")
    args = {"mood": mood}
    note = str(slots.get("mood_note") or "").strip(" ,.")
    if note:
        args["note"] = note[:280]
    return Parsed("log_mood", args, f"log your mood: {mood}")


def _readiness(slots: Slots) -> list[Parsed] | Ask:
    if any(call.name == "log_readiness" for call in slots.world.said):
        return []  # the sentence's other clause, already read with the whole sentence
    text = message_of(slots)
    if re.match(
        r"\s*(how|what|when|why|did|do|does|was|is|am|should|can|show|list|give|tell)\b", text, re.I
    ):
        raise CommandError(
            "I log readiness you tell me: how you slept, how sore and how stressed you are, "
            'e.g. "slept well, a bit sore, not stressed".'
        )
    found = said.readiness(text)
    if len(found) < 2:
        raise NotMeant  # one scale alone ("my back is sore") is no readiness log
    missing = [k for k in ("sleep_quality", "soreness", "stress") if k not in found]
    if missing:
        words = {
            "sleep_quality": "how you slept",
            "soreness": "how sore you are",
            "stress": "how stressed you are",
        }
        asked = " and ".join(words[m] for m in missing)
        return Ask(
            f"To log your readiness I need {asked} too (each 1 to 5), e.g. "
            '"readiness sleep 4 soreness 2 stress 3".',
        )
    sleep, sore, stress = found["sleep_quality"], found["soreness"], found["stress"]
    return [
        Parsed(
            "log_readiness",
            {"sleep_quality": sleep, "soreness": sore, "stress": stress},
            f"log readiness: sleep {sleep}/5, soreness {sore}/5, stress {stress}/5",
        )
    ]


# --- reminders ------------------------------------------------------------------------------------


_VERB = re.compile(
    r"^.*?\b(?:remind\s+me|reminder|alarm)\b(?:\s+for\s+me)?(?:\s+(?:to|for|about))?\s*", re.I
)
_CLOCK_WORDS = re.compile(
    r"\b(?:at|@|by)\s+(?:\d{1,2}|"
    + "|".join(said.NUMBER_WORDS)
    + r")(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?|o'?clock|in\s+the\s+(?:morning|evening|afternoon)|"
    r"at\s+night)?"
    r"|\b\d{1,2}:\d{2}\s*(?:a\.?m\.?|p\.?m\.?)?|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)"
    r"|\b(?:at\s+)?(?:noon|midday|midnight)\b",
    re.I,
)


_ONE_DAY = re.compile(
    r"\b(?:today|tomorrow|the\s+day\s+after\s+tomorrow|\d{4}-\d{2}-\d{2})\b", re.I
)


def _reminder_parts(text: str) -> tuple[str, str | None, list[int]]:
    """The title, the time and the weekdays of the words after "remind me"."""
    time = said.reminder_clock(text)
    days = said.weekdays(text) or list(range(1, 8))
    title = said.DAYS.sub(" ", _CLOCK_WORDS.sub(" ", said.REMINDER_PARTS.sub(" ", text)))
    title = re.sub(r"\s+", " ", title).strip(" ,.")
    for _ in range(2):
        title = re.sub(r"^(?:to|for|about|that i (?:need|have) to)\s+", "", title, flags=re.I)
        title = re.sub(r"\s+(?:to|for|on|at|every|each|and)$", "", title, flags=re.I).strip(" ,.")
    words = set(re.findall(r"[a-z]+", title.lower()))
    if re.match(r"my\s", title, re.I) and (words & TAKEN_THINGS or words & set(SUPPLEMENTS)):
        title = "take " + title  # "a reminder for my vitamins": take them
    return title[:1].upper() + title[1:120], time, days


def _reminder(slots: Slots) -> Parsed | Ask:
    text = " ".join(str(slots.get(k, "")) for k in ("remind_what", "remind_rest")).strip()
    title, time, days = _reminder_parts(text)
    rest = rest_of_message(slots)
    if (not title or time is None) and len(rest) > len(slots.text):
        # A clause cut the reminder short ("remind me every monday | and thursday at 7pm to
        # stretch"): read it to the end of the message.
        title, time, days = _reminder_parts(_VERB.sub("", rest, count=1))
    if not title:
        raise CommandError('Say what to remind you of, e.g. "remind me to stretch at 7pm".')
    if _ONE_DAY.search(title):
        # Reminders repeat on weekdays: a one-off day ("tomorrow at 9") is asked, not turned
        # into every such weekday.
        what = _ONE_DAY.sub(" ", title)
        what = re.sub(r"^\s*(?:to\s+)?", "", re.sub(r"\s+", " ", what)).strip(" ,.")
        what = what[:1].lower() + what[1:]
        at = f" at {time}" if time else ""
        return Ask(
            f"Reminders repeat on the days you choose; which days should I remind you to {what}?",
            (f"remind me every day{at} to {what}", f"remind me on weekdays{at} to {what}"),
        )
    what = title[:1].lower() + title[1:]
    if time is None:
        return Ask(
            f"What time should I remind you to {what}?",
            tuple(f"remind me to {what} at {t}" for t in ("8am", "7pm")),
        )
    return Parsed(
        "create_reminder",
        {"title": title, "time": time, "days": days},
        f"remind you to {what} at {time}, {days_text(days)}",
    )


# --- reads ----------------------------------------------------------------------------------------


def _logs(slots: Slots) -> Parsed:
    if "remind_rest" in slots and said.readiness(str(slots.get("remind_rest"))):
        raise NotMeant  # "how often have i slept badly": no medicine asked after
    weeks, months = slots.get("log_weeks"), slots.get("log_months")
    days = int(slots.get("days") or slots.get("span") or 7)
    if weeks or months:  # "for the last 2 weeks", "over the past 3 months"
        days = int(weeks) * 7 if weeks else int(months) * 30
    days = max(1, min(days, 90))
    kind = slots.get("log_kind") or ("medication" if "remind_rest" in slots else "all")
    return Parsed(
        "get_wellness_logs", {"kind": kind, "days": days}, f"show your wellness log ({days} days)"
    )


TOOK = "(took|taken|had|swallowed|injected|used|popped)"
MOOD_LEAD = (
    "[<hedge>] (i feel|i'm feeling|im feeling|i am feeling|"
    "feeling|i've been feeling|ive been feeling|been feeling|today i feel|i feel like|i'm|im|i am)"
)

EVERYDAY = Language(
    wildcards=(
        "taken",
        "mood_note",
        "remind_what",
        "remind_rest",
        "care_rest",
        "care_told",
        "pain_since",
    ),
    values={
        "mood": MOODS,
        "mood_score": MOOD_SCORES,
        "mood_ten": MOOD_TENS,
        "care_place": CARE_PLACE_FORMS,
        "care_visit": [
            (w, w)
            for w in ("appointment", "appt", "session", "visit", "checkup", "check-up", "treatment")
        ],
        "pain": PAIN_WORDS,
        "told_verb": [(w, w) for w in TOLD_VERBS],
        "pain_from": [(w, w) for w in ("since", "ever since", "for", "from")],
        "span": SPANS,
        "log_kind": LOG_KINDS,
        "took_verb": [
            (w, w) for w in ("took", "taken", "had", "swallowed", "injected", "used", "popped")
        ],
        "injury_verb": [(w, w) for w in INJURY_VERBS],
        "body_part": [(w, w) for w in BODY_PARTS],
        "body_side": [(w, w) for w in ("left", "right")],
    },
    ranges={"days": (1, 90), "log_weeks": (1, 12), "log_months": (1, 3)},
    rules={
        "adverb": "[really|pretty|very|so|quite|super|a bit|kinda|kind of|rather|just|honestly]",
        "hedge": "[i'd say|i would say|i think|i guess|honestly|tbh|overall]",
        "lately": "[today|right now|at the moment|this morning|tonight|lately|these days|now] "
        "[tbh|honestly|lol|haha|atm|tho|though]",
        # "mood's like a 7", "my mood is prolly a 6", "mood maybe a 3 out of 5"
        "mood_is": "(mood [today] [is|was|:|=|at]|mood's [today] [at]|mood today's)",
        "about": "[like|about|around|maybe|prolly|probably|roughly|somewhere around|like about|"
        "maybe like|prolly like|probably like|i'd say|i guess]",
        "ready": "(slept|sleep|sore|soreness|stiff|doms|stressed|stressful|stress|anxious|legs)",
        "span_said": "(in|over|for|from|during) (the last|the past|last|past) ({days} days|"
        "{log_weeks} weeks|{log_months} months)|[in|over|for|from|during] {span}",
        "body": "[my|the|me] [{body_side}] {body_part}",
        "see": "(show|list|give|read|pull up|bring up|open|get|check) [me] | (can|could|may) (i|we) "
        "(see|check|have|look at) | let me see",
        "been": "[has|have|'s|is|are|was] been|keeps|kept",
    },
    intents=(
        Intent(
            "log_medication",
            (
                "[i] [just|already|also] [have|'ve|i've|ive] {took_verb} {taken}",
                "(log|record|note down) [that] [i took] {taken}",
            ),
            build=medicine,
            examples=("I took 400 mg ibuprofen this morning", "log 5 g creatine"),
        ),
        Intent(
            "log_mood",
            (
                f"{MOOD_LEAD} <adverb> {{mood}} <lately>",
                "[my] <mood_is> [feeling] <about> <adverb> {mood} <lately> [{mood_note}]",
                "(log|record|set) [my] mood [as] [to] <adverb> {mood} [{mood_note}]",
                "(today|today's) [is|was] [been] [a|an] <adverb> {mood} day",
                "[<hedge>] [my] <mood_is> <about> [a|an] {mood_score} [out of (5|five)] <lately>",
                "(log|record|set|put|rate) [my|today's] mood [as|to|at] [a|an] {mood_score} "
                "[out of (5|five)] <lately>",
                "[<hedge>] [my] <mood_is> <about> [a|an] [solid|strong|good|low|high] "
                "{mood_ten} <lately>",
                "(log|record|set|put|rate) [my|today's] mood [as|to|at] [a|an] {mood_ten} <lately>",
                f"{MOOD_LEAD} [like|about|around|maybe] [a|an] [solid|strong|good|low] {{mood_ten}} "
                "<lately>",
            ),
            build=_mood,
            examples=("feeling great today", "mood is okay"),
        ),
        Intent(
            "log_readiness",
            (
                # two of the three scales at least: one alone ("my back is sore") is no log
                "[{mood_note}] (slept|sleep was) {care_rest} (sore|soreness|stiff|stressed|"
                "stressful|stress|doms) [{remind_rest}]",
                "[{mood_note}] (sore|soreness|stiff|doms|stressed|stressful) {care_rest} (slept|"
                "sleep was|sore|soreness|stiff|stressed|stressful|stress) [{remind_rest}]",
                # the scales' words in any order: "anxious and stressed, slept like 4 hours,
                # legs are fine" (the build reads two scales at least, else it is no log)
                "[{mood_note}] <ready> [{care_rest}] <ready> [{remind_rest}]",
            ),
            build=_readiness,
            examples=("slept badly, legs are sore, work is stressful",),
        ),
        Intent(
            "create_reminder",
            (
                "[<please>] [can you|could you|please] remind me [to] {remind_what}",
                "[<please>] (set|create|add|make|schedule) [me] [a|an] [daily] (reminder|alarm) "
                "[for me] [to|for|about] {remind_what}",
                "[<please>] remind me {remind_what} to {remind_rest}",
            ),
            build=_reminder,
            examples=(
                "remind me to take creatine at 8am",
                "remind me every monday at 7pm to stretch",
            ),
        ),
        Intent(
            "create_care_log",
            (
                "[i] [just] (went to|went for|saw|visited|been to|have been to|had an appointment with|"
                "had an appointment at|had a session with|had a visit to|was at|was in) "
                "[the|my|a|an] {care_place} [{care_rest}]",
                "[i] [just] (had|got) [a|an|my] {care_place} {care_visit} [{care_rest}]",
                "[i] [just] (had|got) [a|an|my] {care_place} [{care_rest}]",
                "[i] [think] [i] [just] [have|'ve|i've|ive] {injury_verb} (my|a|an|the) "
                "[{body_side}] {body_part} [{care_rest}]",
            ),
            build=care,
            examples=("I went to the physio yesterday about my knee",),
        ),
        Intent(
            "care_session_told",
            (
                # a visit told in the past: "physio appointment went well today"
                "[my|the|today's|todays|yesterday's|yesterdays] {care_place} [{care_visit}] "
                "[today|yesterday|this morning|this afternoon|earlier|last night|on {day}] "
                "{told_verb} [{care_told}]",
            ),
            build=care,
        ),
        Intent(
            "care_lasting_pain",
            (
                # a pain that has lasted since a day: "my shoulder's been hurting since tuesday"
                "<body> <been> <adverb> {pain} {pain_from} {pain_since}",
                "[i've|ive|i have|i] (had|been having) [a|an] <adverb> {pain} [{body_side}] "
                "{body_part} {pain_from} {pain_since}",
                "[i've|ive|i have|i] (had|been having) [{body_side}] {body_part} pain "
                "{pain_from} {pain_since}",
                "{pain_from} {pain_since} <body> <been> <adverb> {pain}",
                "<body> <been> <adverb> {pain} (lately|recently|for a while|for ages|all week|"
                "the whole week|on and off|a lot)",
            ),
            build=lasting_pain,
            examples=("my shoulder's been hurting since tuesday",),
        ),
        Intent(
            "get_wellness_logs",
            (
                "(what|what've|what have) [did] i (logged|log|taken|took) [<span_said>]",
                "(what|which) [kind of] {log_kind} (have i|did i|i've|ive|have i been) (taken|take|"
                "took|logged|log|had|been taking) [<span_said>]",
                "[<see>] [my|the] {log_kind} (log|logs|history|entries|records) [<span_said>]",
                "(show|list) [me] [my|the] {log_kind} [<span_said>]",
                "[<see>] [my|the] {log_kind} <span_said>",
                "(what was|what's|whats|what has|what have) my {log_kind} [been] like "
                "[<span_said>]",
                "(how many times|how often) (have i|did i|i've|ive) (taken|take|took|had|logged) "
                "{remind_rest} [<span_said>]",
                "[<see>] (everything|all) (i've|ive|i have|i) logged [<span_said>]",
                "(how has|how have|how was|how were|how is|how's|hows) my {log_kind} "
                "[been|looked|looking] [<span_said>]",
            ),
            build=_logs,
            examples=("what have I logged this week", "show my mood log"),
        ),
        Intent(
            "list_reminders",
            (
                "(which|what) reminders (do i have|have i got|are set|are there|did i set)",
                "(show|list|give|read) [me] [all] [my|the] reminders",
                "(what are|what're) [all] my reminders",
                "[my] reminders",
                "do i have any reminders",
            ),
            build=lambda slots: Parsed("list_reminders", {}, "list your reminders"),
            examples=("which reminders do I have",),
        ),
    ),
)

LANGUAGE = (CRISIS, EVERYDAY)
