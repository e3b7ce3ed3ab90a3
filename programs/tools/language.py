"""The program family in everyday words (``coach.llm.offline.language``): the sentences people
type about their program, as hassil templates, and the lists they use.

References (``nl_refs``): an exercise by the name people use (any case, singular or plural, with
or without its hyphen, its last word alone when only one exercise has it, the common short names:
bench, RDL, OHP, pull-ups/chin-ups), by position ("the second exercise", "exercise 2", "the last
one") or by pronoun ("it", "that exercise": the one just changed); a session by weekday
("Monday's workout"), "today"/"tomorrow", its name ("the upper body day") or "this workout"; a
week by "this week", "next week" or "week 4". A word that fits several exercises ("press") is a
question with the candidates as chips, never a guess.

The changes (``nl_changes``: exercises; ``nl_places``: adding and moving one; ``nl_plan``:
sessions, weeks and reads) say what they do when the athlete names no week. A load said without
its unit after sets and reps ("5 sets of 5 at 225") is in the exercise's own unit (``nl_loads``);
an exercise wanted gone with nothing named instead ("give me something else", "replace the leg
press") is a question whose chips are a few exercises of the same movement (``nl_instead``), never
a swap the coach picked. A question about one exercise of the plan ("how many sets of
deadlifts am I doing") is answered from it (``nl_questions``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from coach.llm.offline.language import Built, Intent, Language, Slots

from . import nl_changes as ex
from . import nl_places as places
from . import nl_plan as pl
from .nl_data import exercise_names, session_names
from .nl_instead import instead as ex_instead
from .nl_questions import QUESTION
from .nl_rules import RULES, SS
from .nl_words import VALUES


def _with(build: Callable[[Slots], Built], **extra: Any) -> Callable[[Slots], Built]:
    """``build`` with fixed slot values (``more_sets=1`` for "one more set")."""

    def built(slots: Slots) -> Built:
        return build(dataclasses.replace(slots, values={**extra, **slots.values}))

    return built


LANGUAGE = Language(
    lists={
        "exercise": exercise_names,
        "other": exercise_names,
        "session_name": session_names,
    },
    wildcards=("new_name", "note", "phase", "reason"),
    values=VALUES,
    decimals=("load", "bare_load"),
    ranges={
        "week": (1, 52),
        "target_week": (1, 52),
        "position": (1, 30),
        "other_position": (1, 30),
        "to_position": (1, 30),
        "sets": (0, 20),
        "reps": (1, 100),
        "times": (1, 5),
        "load": (1, 1500),
        "bare_load": (1, 1500),
        "rest": (0, 900),
        "minutes": (1, 600),
    },
    rules=RULES,
    intents=(
        Intent(
            "swap_exercise",
            (
                f"<ask> {SS} (change|swap|switch|replace|sub|substitute|exchange|trade) [out] <ex> {SS} (to|with|for|into|by) {{new_name}} {SS}",
                # A complaint about the exercise, then the swap of "it": the reason names it.
                f"<ex> {SS} (is|are|was|were|keeps|keep|has been|have been) {{reason}} (change|swap|switch|replace|sub) (it|them|that|those) (to|with|for|into) {{new_name}}",
                f"{SS} [i'd rather|i want to|let me|can i|i'll|i will|i'd like to] do {{new_name}} instead of <ex> {SS}",
                f"instead of <ex> {SS} [i want to|i'd like to|let me|i'll|i will|can i] do {{new_name}} {SS}",
                f"{SS} [i'd|i would|i'd much|i would much] rather (do|have) {{new_name}} (than|over) <ex> {SS}",
            ),
            build=ex.swap,
            examples=("swap squats for lunges", "change bench press to dumbbell press this week"),
        ),
        Intent(
            "sets_and_reps",
            (
                f"<ask> {SS} (make|set|change|do|give me|put|switch|bump|increase|decrease|lower|raise|take|move|drop|cut|reduce|up|bring|knock) <ex> {SS} [up|down|back] [to|at|as|for] <srl> {SS}",
                f"{SS} <ex> {SS} (should be|will be|can be|to be|needs to be|has to be|is going to be) <srl> {SS}",
                f"<complaint> <ask> {SS} (make|set|change|do|drop|cut|reduce|lower|bump|raise|take|bring|move|switch) (it|them|that|those) {SS} [up|down|back] [to] <srl> {SS}",
                f"<ask> {SS} [do|give me|make it|i want|i'd like|i need|i'll do|let's do|we do|only|just|only do|just do] <srl> (of|on|for|with|in) <ex> {SS} [instead]",
                f"{SS} <ex> {SS} [to|at|for] <srl> {SS} [instead] [please]",
                f"<ask> {SS} (increase|decrease|change|set|bump [up]|raise|lower|up|drop|make|cut) <the> (reps|rep count|repetitions) (on|of|for|in) <ex> {SS} to {{reps}} [reps] {SS}",
                f"<ask> {SS} (increase|decrease|change|set|bump [up]|raise|lower|up|drop|make|cut) <ex> {SS} reps to {{reps}} {SS}",
                f"<ask> (increase|decrease|change|set|bump [up]|raise|lower|up|drop|make|cut) [the] reps to {{reps}} [(on|for|of) <ex>] {SS}",
                f"<ask> (increase|decrease|change|set|bump [up]|raise|lower|up|drop|make|cut) [the] sets to {{sets}} [(on|for|of) <ex>] {SS}",
            ),
            build=ex.volume,
            examples=(
                "make bench press three sets of ten",
                "increase the reps on leg press to 12",
                "squats 5x5 @ 100kg from now on",
            ),
        ),
        Intent(
            "one_more_set",
            (
                f"<ask> {SS} (add|do|give me|throw in) [a|one|an extra|another|{{times}}] [more|extra] (set|sets) (to|of|on|for) <ex> {SS}",
                f"{SS} (one more|another|an extra|{{times}} more|{{times}} extra) (set|sets) (of|on|for|to) <ex> {SS}",
            ),
            build=_with(ex.volume, more_sets=1),
            examples=("add a set to barbell rows on Wednesday",),
        ),
        Intent(
            "one_less_set",
            (
                f"<ask> {SS} (drop|remove|take away|take off|cut|lose|subtract) [a|one|{{times}}] (set|sets) (from|of|on|for) <ex> {SS}",
                f"{SS} (one less|one fewer|{{times}} fewer|{{times}} less) (set|sets) (of|on|for) <ex> {SS}",
            ),
            build=_with(ex.volume, more_sets=-1),
            examples=("drop a set from Friday's deadlifts",),
        ),
        Intent(
            "more_reps",
            (f"<ask> {SS} [do|add|give me] (more|extra) reps (on|for|of|to) <ex> {SS}",),
            build=_with(ex.volume, more_reps=2),
        ),
        Intent(
            "counted_reps",
            (
                f"<ask> {SS} (add|put|give me|do|throw in|throw on) {{times}} (more|extra) (rep|reps) (on|to|for|of|onto) <ex> {SS}",
                f"<ask> {SS} {{times}} (more|extra) (rep|reps) (on|for|of) <ex> {SS}",
                f"<ask> {SS} add {{times}} (rep|reps) (on|to) <ex> {SS}",
            ),
            build=_with(ex.volume, more_reps=1),
        ),
        Intent(
            "counted_fewer_reps",
            (
                f"<ask> {SS} [do|give me] {{times}} (fewer|less) (rep|reps) (on|for|of) <ex> {SS}",
                f"<ask> {SS} (take|drop|knock|cut) {{times}} (rep|reps) (off|from) <ex> {SS}",
            ),
            build=_with(ex.volume, more_reps=-1),
        ),
        Intent(
            "fewer_reps",
            (f"<ask> {SS} [do|give me] (fewer|less) reps (on|for|of) <ex> {SS}",),
            build=_with(ex.volume, more_reps=-2),
            examples=("fewer reps on squats",),
        ),
        Intent(
            "warmup_sets",
            (
                f"<ask> {SS} [do|add|give me|make it|i want] {{sets}} (warm up|warmup|warm-up) sets (for|on|of|to|before) <ex> {SS}",
                f"<ask> {SS} (make|set|change) <the> (warm up|warmup|warm-up) sets (on|of|for) <ex> {SS} [to] {{sets}} {SS}",
            ),
            build=ex.warmups,
        ),
        Intent(
            "load",
            (
                f"<ask> {SS} (put|set|make|change|bump|increase|raise|drop|lower|load|take) <ex> {SS} (at|to|with|up to|down to) <load> {SS}",
                f"<ask> {SS} (make|go) <ex> {{direction}} {SS} [at|to|with] [<load>] {SS}",
                f"<ask> {SS} [go] [a bit|a little|slightly|much|way] {{direction}} (on|with|for) <ex> {SS} [at|to|with] [<load>] {SS}",
                f"<complaint> <ask> {SS} (put|set|make|change|bump|increase|raise|drop|lower|reduce|cut|take|bring|up|knock|move) [it|them|that|those|<the> (weight|load)] {SS} [up|down|back] (to|at) <load> {SS}",
                f"<complaint> <ask> {SS} (make|set|put) (it|them|that|those) {SS} <load> {SS}",
                f"<ask> {SS} make (it|that|them|this) {{direction}} {SS} [at|to] [<load>]",
                f"<ask> {SS} (use|do|lift|load|put) <load> (on|for|onto) <ex> {SS}",
                f"{SS} <ex> {SS} [at|to|@|with] <load> {SS}",
                f"<ask> {SS} {{weight_change:direction}} (on|for|of|with|to) <ex> {SS} [[to|at] <load>] {SS}",
                f"<ask> {SS} (put|set|make|change|bump|increase|raise|drop|lower|reduce|cut|take|up) <the> (weight|load) (on|for|of|with) <ex> {SS} [up|down] (to|at) <load> {SS}",
                # No exercise named: the one just changed, else a question (never a guess).
                f"<ask> {SS} (put|set|make|change|bump|increase|raise|drop|lower|reduce|cut|take|up|bring) <the> (weight|load) {SS} [up|down|back] (to|at) <load> {SS}",
                f"{SS} <ex> {SS} (feels|felt|is|was|seems|seemed|feel|are|were|is getting|are getting) [way|much|a bit|a little|kinda|kind of|really|a tad|far] too {{too:direction}} {SS}",
            ),
            build=ex.load,
            examples=("put Monday's squats at 225 lbs", "make the overhead press heavier"),
        ),
        Intent(
            "load_up",
            (
                # "put 185 lbs on the bench" sets the load (the "load" intent); "put" adds only
                # with "more", "another" or "an extra" said.
                f"<ask> {SS} (add|throw) [on] [another|an extra] <load> [more] (to|on|onto) <ex> {SS}",
                f"<ask> {SS} put [on] (another|an extra) <load> [more] (to|on|onto) <ex> {SS}",
                f"<ask> {SS} put [on] <load> more (to|on|onto) <ex> {SS}",
                f"<ask> {SS} <load> (more|heavier) (on|for) <ex> {SS}",
                f"<complaint> <ask> {SS} (add|throw on|put on) [another|an extra] <load> [more] [(to|on|onto) (it|them|that|those)] {SS}",
                f"<complaint> <ask> {SS} (raise|bump|increase|up) [it|them|that|those|<the> (weight|load)] [up] by <load> {SS}",
            ),
            build=_with(ex.load, delta=1),
        ),
        Intent(
            "load_down",
            (
                f"<ask> {SS} (take|drop|knock) [off] <load> (off|from) <ex> {SS}",
                f"<ask> {SS} <load> (less|lighter) (on|for) <ex> {SS}",
                f"<complaint> <ask> {SS} (take|knock) [off] <load> [off] [(of|from) (it|them|that|those)] {SS}",
                f"<complaint> <ask> {SS} (drop|lower|reduce|cut|bring) [it|them|that|those|<the> (weight|load)] [down] by <load> {SS}",
            ),
            build=_with(ex.load, delta=-1),
        ),
        Intent(
            "load_unit_unsaid",
            (
                f"<ask> {SS} (put|set|bump|increase|raise|drop|lower|take|change|make|up) <ex> {SS} [up|down] (to|at) {{bare_load}} {SS}",
                f"<complaint> <ask> {SS} (put|set|make|change|bump|increase|raise|drop|lower|reduce|cut|take|bring|up|knock|move) [it|them|that|those|<the> (weight|load)] {SS} [up|down|back] (to|at) {{bare_load}} {SS}",
            ),
            build=ex.load,
        ),
        Intent(
            "rest",
            (
                f"<ask> {SS} rest <rest> [between sets] [(on|for|of|in|with) [sets of] <ex>] {SS}",
                f"<ask> {SS} rest <rest> between [the|my|your] <ex> sets {SS}",
                f"<ask> {SS} rest <rest> between sets (on|for|of|in|with) <ex> {SS}",
                f"<ask> {SS} (give me|set|make|use|take|i want) <rest> [of] rest (on|for|between|in|with) [sets of] <ex> {SS}",
                f"<ask> {SS} (set|change|make|increase|decrease|cut|shorten|lengthen) <the> rest (on|for|of|between sets of) <ex> {SS} to <rest> {SS}",
                f"<ask> {SS} (set|change|make|increase|decrease|cut|shorten|lengthen) <the> rest [time|period] [to|at] <rest> (on|for|of|in|between sets of|between sets on) <ex> {SS}",
            ),
            build=ex.rest,
            examples=("rest 90 seconds between sets of bench",),
        ),
        Intent(
            "skip_exercise",
            (
                f"<ask> {SS} skip <ex> {SS} [{{reason}}]",
                f"{{reason}} <ask> {SS} skip <ex> {SS}",
                f"i (can't|cannot|can not|won't|will not|don't want to|couldn't) do <ex> {SS} [so] [please] skip (it|that|that exercise|them|those|this exercise) {SS}",
                f"{SS} skip (it|that|that exercise|them|those) {SS} i (can't|cannot|can not) do <ex> {SS}",
                f"[{{reason}}] i (can't|cannot|can not|won't be able to|am not able to|'m not able to|couldn't|don't want to|won't|will not) (do|manage) <ex> {SS} [{{reason}}]",
                f"[{{reason}}] i('m| am) not (doing|going to do|gonna do|able to do) <ex> {SS} [{{reason}}]",
                f"[{{reason}}] no <ex> {SS} [{{reason}}]",
            ),
            build=ex.skip,
            examples=("I can't do squats today, skip that exercise",),
        ),
        Intent(
            "remove_exercise",
            (
                f"<ask> {SS} (remove|drop|delete|take out|get rid of|cut|ditch|scrap|lose|bin) <ex> {SS}",
                f"<ask> {SS} take <ex> out [of <sess>] {SS}",
            ),
            build=ex.remove,
            examples=(
                "remove the last exercise from Monday's workout",
                "drop the planks on Monday",
            ),
        ),
        Intent(
            "remove_for_good",
            (
                f"[{{reason}}] no more <ex> {SS} [please]",
                f"[{{reason}}] <ask> (stop doing|no longer do|quit doing|quit) <ex> {SS}",
                f"[{{reason}}] i (don't|do not|won't|will not) (want to do|do|want) <ex> (anymore|any more) {SS}",
                f"[{{reason}}] i'm (done with|not doing|finished with) <ex> (anymore|any more|for good) {SS}",
            ),
            build=_with(ex.remove, ongoing=True),
            examples=("no more squats",),
        ),
        Intent(
            "something_else",
            (
                f"[{{reason}}] [so] <ask> (give me|find me|suggest|i want|i need|i'd like|get me|pick) (something|anything) (else|different) (for|instead of|than|to replace) <ex> [instead] {SS}",
                f"i (hate|don't like|do not like|dislike|can't stand|cannot stand|am not a fan of|'m not a fan of|'m not into|am not into|'m sick of|am sick of|'m tired of|am tired of) <ex> {SS} [so] [please] [(give me|find me|suggest|i want|i need|i'd like|swap (it|them|that) for|replace (it|them|that) with|change (it|them|that) to) (something|anything) (else|different) [instead]]",
                f"<ask> {SS} (change|replace|swap|switch|sub|substitute|swap out|sub out|switch out|change out) <ex> {SS}",
                f"<ask> {SS} (change|replace|swap|switch|sub|substitute) <ex> {SS} (for|with|to) (something|anything) (else|different) {SS}",
                f"(what|what's|whats|what is) (a good|an|a) (alternative|substitute|replacement|swap) (to|for) <ex> {SS}",
            ),
            build=ex_instead,
        ),
        Intent(
            "add_exercise",
            (
                f"<ask> {SS} (add|put|throw|include|insert|stick|slot) [in] [some|a|an] [<sr>] {{new_name}} [<sr>] [(at|@) <load>] {SS} [{{side}} <other>] [{{end}}] {SS} [<sr> [(at|@) <load>]]",
                f"<ask> {SS} (add|put|throw|include|insert|stick|slot) [in] [some|a|an] [<sr>] {{new_name}} [<sr>] [(at|@) <load>] {{end}} (of|on|in|to) <sess> {SS}",
                f"<ask> {SS} (add|put|throw|include|insert|stick|slot) [in] [some|a|an] [<sr>] {{new_name}} [<sr>] [(at|@) <load>] (to|on|in|into|for) <sess> {SS} [{{side}} <other>] {SS} [<sr> [(at|@) <load>]]",
            ),
            build=places.add,
            examples=(
                "add bench press after exercise 2 on Monday",
                "add calf raises at the end of Monday's workout",
            ),
        ),
        Intent(
            "move_exercise",
            (
                f"<ask> {SS} (move|put|shift|bring|do|have) <ex> {SS} {{end}} [(of|on|in) <sess>] {SS}",
                f"<ask> {SS} (move|put|shift) <ex> {SS} to (position|number|spot|slot) {{to_position}} {SS}",
                f"<ask> {SS} [i want to|i'd rather|let's|lets|i'd like to] (do|move|put|have) <ex> {{side}} <other> {SS}",
            ),
            build=places.move,
            examples=("move planks to the start of Monday's workout",),
        ),
        Intent(
            "rename_session",
            (
                f"<ask> {SS} (rename|call|name|retitle) <sessw> {SS} [to|as] {{new_name}}",
                f"<ask> {SS} change <the> name of <sessw> {SS} to {{new_name}}",
                f"<ask> {SS} change <sessw> name to {{new_name}}",
                f"{SS} <sessw> {SS} (should be|will be|is|can be) (called|named|renamed) [to] {{new_name}}",
                f"(can|could|should|shall) <sessw> {SS} be (called|named|renamed) [to] {{new_name}}",
            ),
            build=pl.rename_session,
            examples=("rename Monday's workout to Leg Day",),
        ),
        Intent(
            "note_session",
            (
                f"<ask> {SS} add [a] (note|notes) (to|on|for) <sessw> {SS} [saying|that says|reading] {{note}}",
            ),
            build=pl.note_session,
        ),
        Intent(
            "remove_session",
            (f"<ask> {SS} (delete|remove|cancel|drop|scrap|get rid of) <sessw> {SS}",),
            build=pl.remove_session,
            examples=("delete Friday's workout this week",),
        ),
        Intent(
            "copy_session",
            (
                f"<ask> {SS} (copy|duplicate|repeat) <sessw> {SS} (to|into|for|in|onto) ({{to_next}}|week {{target_week}})",
            ),
            build=pl.copy_session,
            examples=("copy Monday's workout to next week",),
        ),
        Intent(
            "rest_day",
            (
                "<ask> [<wk>] make {day} [<wk>] [a|an] (rest|off|recovery) day [<wk>]",
                "<ask> [<wk>] (put|add|schedule|give me|take|plan) [a|an] (rest|off|recovery) day (on|for) {day} [<wk>]",
                "[i'll|i will|i want to|let me|i'd like to|i'm going to] take {day} off [<wk>]",
                "{day} (is|should be|will be) [a] rest day [<wk>]",
            ),
            build=pl.rest_day,
            examples=("make Sunday a rest day",),
        ),
        Intent(
            "cardio_day",
            (
                "<ask> [<wk>] [add|put|schedule|do|plan|give me] [a|an] ({minutes} [-] {minute_unit}|{hour}) [long] [of] {cardio} [cardio] [{modality}] [cardio] [day|session|workout] (on|for) {day} [<wk>]",
                "<ask> [<wk>] [add|put|schedule|do|plan|give me] [a|an] {cardio} [cardio] [{modality}] [day|session|workout] [of] ({minutes} {minute_unit}|{hour}) (on|for) {day} [<wk>]",
            ),
            build=pl.cardio_day,
            examples=("add a 30-minute zone 2 cardio day on Saturday",),
        ),
        Intent(
            "deload_week",
            (
                "<ask> [add|insert|put|schedule|plan|give me|i need|i want|we need|i'd like|can i have|can i get|could i have|could i get|can we have|can we add|how about|let's have|lets have] [in] [a|an] {phase_kind} week (after week {week}|at the end [of the (program|plan|block)]|[at the end])",
                "<ask> [add|insert|put|schedule|plan|give me|i need|i want|we need|i'd like|can i have|can i get|could i have|could i get|can we have|can we add|how about|let's have|lets have] [in] [a|an] {phase_kind} after week {week}",
            ),
            build=pl.deload_week,
            examples=("add a deload week after week 4",),
        ),
        Intent(
            "week_phase",
            (
                "<ask> (call|rename|name|make|set|label|mark) week {week} [as|to] [the|a|an] {phase} [phase|block]",
                "<ask> (set|change|make) week {week} phase to {phase}",
                "<ask> (set|change|make) <the> phase of week {week} to {phase}",
            ),
            build=pl.name_phase,
            examples=("call week 2 the Intensification phase",),
        ),
        Intent(
            "show_plan",
            (
                "(what's|what is|whats|what've i got|what have i got|what do i have|what am i doing) [on|planned|scheduled|happening|in store] [for] [<the>] ({day}|{when}) [workout|session] [<wk>]",
                "(what's|what is|whats) [in|on] (week {week}|{this_week}|{next_week}) [look like]",
                "(show|give|tell) [me] [<the>] (week {week}|{this_week}|{next_week}|{day}|{when}) [plan|workout|session|program]",
                "what does ({day}|{when}|week {week}|{next_week}|{this_week}) look like",
                "(what's|what is|whats|what are) <the> (workout|session|training|lift|plan) [is] [for|on] ({day}|{when}) [<wk>]",
            ),
            build=pl.show,
            fit=pl.show_fit,
            examples=("what's on Wednesday?", "show me week 4"),
        ),
        QUESTION,
    ),
)
