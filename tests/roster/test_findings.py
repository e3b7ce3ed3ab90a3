"""The roster's pure parts: the pain words in a note, the need score, the sparkline."""

import datetime

from roster.findings import Limits, mentions, need_score, pain_finding, percent, sparkline
from roster.models import FlagKind

WORDS = ("sore", "pain", "injured", "sick")


def test_mentions_finds_the_words_and_quotes_only_their_sentences():
    words, excerpt = mentions(
        "Great squats today. My left knee is sore after the lunges! Dinner was nice.", WORDS
    )
    assert words == ["sore"]
    assert excerpt == "My left knee is sore after the lunges!"


def test_mentions_matches_whole_words_only():
    assert mentions("Soreness 2, painting the fence, sickle", WORDS) == ([], "")


def test_mentions_is_case_blind_and_lists_each_word_once():
    words, _ = mentions("PAIN in the shin. More pain. Felt sick.", WORDS)
    assert words == ["pain", "sick"]


def test_a_long_excerpt_is_bounded():
    _, excerpt = mentions("sore " * 200, WORDS)
    assert len(excerpt) <= 280 and excerpt.endswith("…")


def test_a_pain_finding_points_at_the_words_and_names_no_condition():
    finding = pain_finding(
        athlete_id=1,
        key="activity:3",
        text="Knee is sore",
        source="workout note",
        on=datetime.date(2026, 11, 20),
        link="/x",
        limits=Limits(pain_words=WORDS),
    )
    assert finding.kind == FlagKind.PAIN
    assert finding.summary == "Mentions 'sore' in a workout note"
    assert finding.excerpt == "Knee is sore"


def test_no_words_no_finding():
    assert (
        pain_finding(
            athlete_id=1,
            key="k",
            text="Felt great",
            source="note",
            on=datetime.date(2026, 11, 20),
            link="",
            limits=Limits(pain_words=WORDS),
        )
        is None
    )


def test_a_crisis_outweighs_every_other_need_together():
    others = need_score(
        open_kinds=[k for k in FlagKind.values if k != FlagKind.CRISIS],
        waiting=10,
        unread=20,
        week_colour="red",
    )
    assert need_score(open_kinds=[FlagKind.CRISIS], waiting=0, unread=0, week_colour=None) > others


def test_the_need_score_adds_flags_waiting_proposals_unread_and_a_red_week():
    assert need_score(open_kinds=[], waiting=0, unread=0, week_colour="green") == 0
    assert (
        need_score(open_kinds=["missed"], waiting=2, unread=3, week_colour="red") == 25 + 10 + 6 + 5
    )


def test_percent_of_nothing_planned_is_none():
    assert percent(0, 0) is None
    assert percent(3, 4) == 75


def test_the_sparkline_is_an_svg_of_numbers_with_gaps_skipped():
    svg = sparkline([1.0, None, -5.0, 3.0])
    assert svg.startswith("<svg") and svg.count("<polyline") == 1
    assert "form +1 → +3" in svg
    assert sparkline([2.0]) == ""
