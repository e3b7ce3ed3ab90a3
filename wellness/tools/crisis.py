"""The crisis path in everyday words (seed 004; issue 20): crisis language in free text logs the
mood as crisis, which the chat answers with the deployment's fixed message (``crisis_message``)
and flags to the athlete's coach. It is a ``Language`` of its own with ``crisis=True``: the
offline coach asks it before anything else (the documented commands included), on the whole
message, on each clause and on the message with its typos corrected, so it wins whatever else
the sentence holds.

The words are held between wildcards (anything may come before or after them), and kept to the
words themselves: "I want to hurt myself" and "skip tomorrow, I want to kill myself" are the
crisis path; "I hurt myself deadlifting" (an injury) and "this workout is killing me" are not.
When in doubt a phrase is on the crisis side: showing the resources to someone who didn't need
them costs far less than the opposite."""

from __future__ import annotations

from coach.llm.offline.grammar import Parsed
from coach.llm.offline.language import Intent, Language

_ME = "(myself|my self|meself)"
CRISIS = Language(
    crisis=True,
    wildcards=("crisis_before", "crisis_after"),
    rules={
        "wish": "(want|wanna|going|gonna|plan|planning|need|have|thinking about|think about|"
        "thought about|thoughts of|thoughts about|feel like|considering|tempted|might|may|will|"
        "could|should|would|about|urge|urges|thinking of|been thinking of|been thinking about)",
        "not": "(don't|do not|dont|can't|cant|cannot|no longer|just don't|just dont|really don't|"
        "really dont)",
        "end": "(anymore|any more|now|honestly|tbh|anyway|anyways|tho|though|lol|to be honest)",
    },
    intents=(
        Intent(
            "crisis",
            (
                "[{crisis_before}] (kill|kil|killing|killin|killed) " + _ME + " [{crisis_after}]",
                "[{crisis_before}] (kms|kys) [{crisis_after}]",
                "[{crisis_before}] (end|ending|take|taking) my [own] life [{crisis_after}]",
                "[{crisis_before}] (suicide|suicidal|self harm|self-harm|selfharm|self harming) "
                "[{crisis_after}]",
                "[{crisis_before}] <wish> [to] (hurt|hurting|harm|harming|cut|cutting) "
                + _ME
                + " [{crisis_after}]",
                "[{crisis_before}] (cutting|harming) myself [{crisis_after}]",
                "[{crisis_before}] (don't|do not|dont|no longer) want to (be here|live|be alive|"
                "exist|wake up|go on) [{crisis_after}]",
                "[{crisis_before}] (want|wanna|wish i could|wish i was|wish i were|ready) "
                "[to] (die|dead|disappear forever) [{crisis_after}]",
                "[{crisis_before}] <wish> [to] (ending|end) (it|it all|everything|things) "
                "[{crisis_after}]",
                "[{crisis_before}] (end it all|no reason to live|nothing to live for|"
                "better off dead|better off without me|can't go on|cant go on|cannot go on|"
                "can't do this anymore|can't take it anymore|no point in living|"
                "no point living) [{crisis_after}]",
                "[{crisis_before}] (don't|do not|dont|can't|cant|cannot) see (the|any) point "
                "(in|of) (living|life|being alive|going on|carrying on) [{crisis_after}]",
                "[{crisis_before}] (no|not any) (point|reason) (in|of|to) (living|life|being alive|"
                "going on|carrying on|being here) [{crisis_after}]",
                # Said without the words "kill" or "suicide": the point of it all, being gone,
                # sleeping and not waking, wanting it all to stop.
                "[{crisis_before}] <not> see (the|any) point [in|of] [it|it all|anything|"
                "everything|life|trying|going on] [anymore|any more|now]",
                "[{crisis_before}] (what's|whats|what is) the point (of|in) (living|life|being "
                "alive|going on|carrying on|being here|anything) [{crisis_after}]",
                "[{crisis_before}] better off (if|when|once) (i|i'm|im) (wasn't|wasnt|weren't|"
                "werent|was not|were not|gone|dead|not here|not around|died|didn't exist|"
                "didnt exist|disappeared|never born|wasnt born) [{crisis_after}]",
                "[{crisis_before}] (nobody|no one|noone|no-one) (would|will|wd) (care|notice|miss "
                "me) (if|when) (i|i'm|im) (died|die|dead|gone|disappeared|wasn't here|wasnt here|"
                "killed myself) [{crisis_after}]",
                "[{crisis_before}] (nobody|no one|noone) (would|will) miss me [{crisis_after}]",
                "[{crisis_before}] (thinking|thought|thoughts|think) (of|about) (ending|end) it "
                "[all] [{crisis_after}]",
                "[{crisis_before}] (and|to|then|just) (never|not) (wake|waking) up [again] "
                "[{crisis_after}]",
                "[{crisis_before}] (wish|hope|hoping) (i|that i) (wouldn't|wont|won't|don't|dont|"
                "didn't|didnt|never|would never|could never|do not) wake up [{crisis_after}]",
                "[{crisis_before}] (wish|wishing) (i|that i) (was|were|had) (dead|never been born|"
                "not born|gone|not alive) [{crisis_after}]",
                "[{crisis_before}] <wish> [to] (it|everything|it all|all of it|the pain) "
                "(to) (stop|end|be over) [forever|for good|permanently] [{crisis_after}]",
                "[{crisis_before}] (want|wanna|need) (it|it all|everything|this|all of this) to "
                "(stop|end|be over) [forever|for good|permanently|now] [{crisis_after}]",
                "[{crisis_before}] (cutting|cut|hurting|harming|burning|burned|burnt) (again|"
                "myself again|my arms|my wrists|my legs) [{crisis_after}]",
                "[{crisis_before}] (overdose|overdosing|od on|jump off|hang myself|hanging myself|"
                "slit my wrists) [{crisis_after}]",
                # Despair said plainly: a question about the point with nothing after it, life
                # not worth living, sleeping forever, being done with everything.
                "[{crisis_before}] (what's|whats|what is) the point [anymore|any more|of anything|"
                "of it all|of it|of any of this|of trying]",
                "[{crisis_before}] (want|wanna|wish i could|need) [to] (disappear|vanish|not "
                "exist|stop existing|sleep forever|go to sleep forever|fall asleep forever) "
                "[{crisis_after}]",
                "[{crisis_before}] (life|living|my life) (isn't|isnt|is not|ain't|aint|not) worth "
                "(living|it) [anymore|any more] [{crisis_after}]",
                "[{crisis_before}] (i'm|im|i am) (done|finished) with (life|living|everything|it "
                "all|being alive) [{crisis_after}]",
                "[{crisis_before}] (hate|hating) (my life|being alive|living) [{crisis_after}]",
                "[{crisis_before}] (can't|cant|cannot) (keep going|keep living|go on|carry on|do "
                "this) (like this|anymore|any more)",
                "[{crisis_before}] give up on (life|living|everything) [{crisis_after}]",
                # Others better off, or life itself wearing the athlete out: "everyone would be
                # happier without me", "so tired of living".
                "[{crisis_before}] (better|happier) (off|off without me|without me) (if|when|once) "
                "(i|i'm|im) (wasn't|wasnt|was not|weren't|werent) (here|around|alive) "
                "[{crisis_after}]",
                "[{crisis_before}] (everyone|everybody|the world|people|they|my family|my friends|"
                "my kids|my parents|my partner|my wife|my husband|all of them|we all) (would|will|"
                "'d|wd) [all] be (better|happier) [off] without me [<end>]",
                "[{crisis_before}] (tired|sick|exhausted|weary) of (living|being alive|life|existing|"
                "being here) [<end>]",
                "[{crisis_before}] <wish> [to] (hurt|hurting|harm|harming) (me|myself) [{crisis_after}]",
                "[{crisis_before}] (take|taking|took|swallow|swallowing|swallowed) (all|the whole "
                "bottle of) [of] [my|the] (pills|tablets|meds|medication|sleeping pills) "
                "[{crisis_after}]",
            ),
            build=lambda slots: Parsed("log_mood", {"mood": "crisis"}, "log your mood: crisis"),
        ),
    ),
)
