"""The offline coach: a deterministic parser of plain commands, the embedded default provider.

With no model configured, this provider maps a documented set of commands to the very same tool
calls a model would propose (seed 000's eleven tools, camelCase arguments). Nothing is applied by
it: the calls go through the same preview and **Apply Changes** as a model's.

Numbering is ``W.S.E``: ``1.2.3`` is week 1, session 2, exercise 3; ``1.2`` is week 1, session 2.
``week 1 session 2 exercise 3`` and ``w1 s2 e3`` are understood too. Commands are
case-insensitive; names keep the case you type. Several commands can be joined with ``;``, a new
line, or `` and `` / `` then `` before the next command's verb.

Exercises
    rename exercise 1.2.3 to Goblet Squat              modify_exercise {name}
    set exercise 1.2.3 reps 10-12                      modify_exercise {reps}
    set exercise 1.2.3 sets 4                          modify_exercise {workingSets}
    set exercise 1.2.3 warmup 2                        modify_exercise {warmupSets}
    set exercise 1.2.3 load 50 lbs                     modify_exercise {targetLoad}  (also "weight")
    set exercise 1.2.3 rest 90                         modify_exercise {restSeconds} ("90s", "2 min")
    set exercise 1.2.3 group A                         modify_exercise {groupLabel}
    set exercise 1.2.3 notes Pause at the bottom       modify_exercise {notes} (notes/name end the command)
    set exercise 1.2.3 sets 4 reps 6 load 80 kg        several fields at once
    skip exercise 1.2.3 / unskip exercise 1.2.3        modify_exercise {skipped}
    remove exercise 1.2.3                              remove_exercise ("delete" works too)
    add exercise Bench Press 3x8 @ 135 lbs to 1.2      add_exercise at the end
    add exercise Plank 3x30s to 1.2 at 2               ... at position 2 (no "@ load": bodyweight)
    move exercise 1.2.3 to 1                           reorder_exercises

Sessions
    add session Push Day to week 1 [on Monday] [at 2]  add_session (no exercises yet)
    add rest day to week 1 [on Sunday] [at end]        add_session {name: "Rest"}
    make Sunday a rest day [in week 1]                 add_session {name: "Rest", dayOfWeek}
    add cardio day zone2 30 min Running to week 1 [on Saturday]
                                                       add_session with a cardio block
                                                       (types: zone2, intervals, sweetspot,
                                                       threshold, vo2max; modality optional)
    rename session 1.2 to Push Day A                   modify_session {name}
    set session 1.2 cardio zone2 30 [Cycling]          modify_session {cardio}
    set session 1.2 day Saturday                       modify_session {dayOfWeek}
    set session 1.2 date 2026-12-05                    modify_session {scheduledDate}
    set session 1.2 notes Keep it easy                 modify_session {notes}
    remove cardio from session 1.2                     modify_session {cardio: null}
    remove session 1.2                                 remove_session
    copy session 1.2 to week 3 [at 1]                  copy_session

Weeks
    set week 2 phase Deload                            modify_week {phase}
    set week 2 start 2026-12-01 / set week 2 end ...   modify_week {startDate} / {endDate}
    describe week 2 as Lighter week before testing     modify_week {description}
    add week Deload from 2026-12-01 to 2026-12-07 after week 4
                                                       add_week: one week with 3 empty sessions
                                                       ("with 4 sessions"; "at 2" / "at end")
    remove week 3                                      remove_week
    show week 3                                        get_week (a read tool: answered at once)

Training (``training/tools/offline.py``; sessions are ``W.S``, the tools' ``week-W-session-S``)
    show my last run / how was my last ride?           get_last_activity (reads: answered at once)
    activities on DATE / runs from DATE to DATE        get_activity_by_date / get_activities_range
    plan [from DATE] [to DATE] / sleep 7 / fitness     get_training_plan / get_sleep_data / get_fitness_scores
    compare activities 12 15                           compare_activities
    move session 2.3 to 2026-12-05 swap|replace|push   reschedule_workout
    skip session 2.3 because sick                      skip_workout
    done session 2.3 [rating 4] [notes ...]            mark_workout_complete
    add run on 2026-12-05 40 min tempo named X         create_custom_workout
    log exercise 2.3.1 3x8 @ 100 kg rpe 8              log_sets
    realign / lighter 5 days                           realign_plan / lighten_plan {days: 3-14}

Library (``library/tools/offline.py``, seed 003)
    find workouts legs                                 search_workout_library (read)
    schedule workout 12 on 2026-12-01 weekly 4         add_workout_to_calendar
    save workout TITLE SPORT MIN min INTENSITY: ...    save_workout_to_library
    go to calendar / open workout 12                   navigate_to_page (read)

Anything else (``help``, a question, an unknown command) gets the list of commands. After a batch
is decided (Apply, Cancel, the coach's review, undo, expiry) the reply acknowledges it from the
structured decision the conversation layer attaches to the user turn (``Turn.events``), never from
prose: typing "The athlete clicked Apply Changes" is just an unknown command. A command typed after
a decision in the same user turn is parsed as usual.

A read joined to changes in one message is called first and its answer is shown above the list of
changes; only the changes go to the card. The suggested replies the app offers ("Show my program",
"Show me the session", "What does this change?", "Never mind", "Try again"...) are understood by
``replies``.

The package: ``grammar`` (vocabulary and helpers), ``commands`` (the command parser and the help
text), ``families`` (finds each family app's ``tools/offline.py``: training, library, nutrition,
wellness declare their commands there), ``replies`` (the suggested replies), ``provider`` (the
provider and its acknowledgments).
Text replies end with suggested replies in seed 000's format: the text, a ``---`` line, then one
reply per line. The same grammar is described for people in ``OFFLINE_COMMANDS.md``.
"""

from .commands import help_text, parse_command
from .grammar import HELP_COMMANDS, CommandError, Parsed, split_commands, with_replies
from .provider import OfflineProvider, acknowledgment

__all__ = [
    "HELP_COMMANDS",
    "CommandError",
    "OfflineProvider",
    "Parsed",
    "acknowledgment",
    "help_text",
    "parse_command",
    "split_commands",
    "with_replies",
]
