"""The program family's expansion rules (``language``): the ways a sentence names an exercise
(``<ex>``, and ``<other>`` for a second one), a session, where in the program (``<where>``),
sets and reps with or without a load, and a complaint said before a request."""

from __future__ import annotations

EX = "(<the> [{day}|{when}|{this_week}|{next_week}] {exercise}|<the> {ordinal} (exercise|one|movement|lift)|exercise [number] {position}|{pronoun})"
OTHER = "(<the> [{day}|{when}] {other}|<the> {other_ordinal} (exercise|one)|exercise [number] {other_position})"
SESS = (
    "(<the> ({day}|{when}|{session_name}) [workout|session|training|day|lift|one]"
    "|{this_session}|<the> {day})"
)
SESSW = "(<the> ({day}|{when}|{session_name}) (workout|session|training|day|lift)|{this_session}|{day}'s)"
WHERE = (
    "((on|for|from|in|into|to|of|at) " + SESS + "|{this_week}|{next_week}|{when}"
    "|[(in|for|of|on|during)] week {week}|(this|next) {day}|{ongoing})"
)
SR = (
    "({sets} sets (of|x|by|with) {reps} [reps]|{sets} x {reps} [reps]|{sets} by {reps}"
    "|{sets} sets|{reps} reps|{sets} sets and {reps} reps)"
)
# Sets and reps with the load said after them ("5x5 @ 100kg", "5 sets of 5 at 225").
SRL = "<sr> [((at|@|with) <load>|(at|@) {bare_load})]"
COMPLAINT = (
    "<ex> [<where>] [<where>] (feels|feel|felt|is|are|was|were|seems|seem|seemed|keeps|keep"
    "|has been|have been|is getting|are getting|getting) {reason} [so|but]"
)
WK = "({this_week}|{next_week}|[(in|for|of|on)] week {week})"
SS = "[<where>] [<where>]"

RULES = {
    "ask": "[please|pls|can you|could you|would you|can u|i want to|i'd like to|i wanna|let's|lets|i need to|we need to|go ahead and|can we|could we|can i|could i|shall we] [please]",
    "ex": EX,
    "other": OTHER,
    "sess": SESS,
    "sessw": SESSW,
    "where": WHERE,
    "sr": SR,
    "srl": SRL,
    "wk": WK,
    "load": "{load} {unit}",
    # A complaint about the exercise before the request ("deadlifts feel too heavy, ..."):
    # the request then says "it", "them" or "the weight", and the complaint names the exercise.
    "complaint": COMPLAINT,
    "rest": "{rest} {rest_unit}",
}
