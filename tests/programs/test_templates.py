"""Templates for many athletes (issue 22, part 3): a program saved as a template, assigned to
athletes with a start date each, and a template edit proposed to each athlete with their own dry
run and applied to all or some, their completed sessions kept and their own edits shown as
conflicts and kept unless the coach overwrites."""

from __future__ import annotations

import datetime

import pytest

from access.policy import athletes_of
from journal import services as journal
from programs import services
from programs.history import change_set_of
from programs.models import Program, ProgramRevision, TemplateAssignment
from programs.plan import current
from programs.plan_templates import propagate
from programs.plan_templates.assign import TemplateError, Wanted, assign
from programs.plan_templates.trees import record_version
from tests.programs.admin_support import make_coach
from tests.programs.template_support import (
    MONDAY,
    athletes_of_coach,
    edit_template,
    exercise_at,
    give,
    session_at,
    template_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def coach():
    return make_coach("coach-ann")


def set_reps(week, session, position, reps):
    def change(tree):
        tree["weeks"][week - 1]["sessions"][session - 1]["exercises"][position - 1]["fields"][
            "reps"
        ] = reps

    return change


def all_chosen(template, coach, overwrite=None):
    latest = record_version(template)
    return {
        a.pk: (a.program.version, (overwrite or {}).get(a.pk, set()))
        for a in propagate.behind(template, latest)
    }


def apply_all(template, coach, chosen=None):
    latest = record_version(template)
    outcomes, refused = propagate.apply(
        template=template,
        coach=coach,
        version_number=latest.number,
        chosen=chosen if chosen is not None else all_chosen(template, coach),
    )
    assert not refused
    return outcomes


def test_assign_gives_each_athlete_their_own_program_on_their_dates(coach):
    template = template_of(coach)
    sam, kim = athletes_of_coach(coach, 2)
    later = MONDAY + datetime.timedelta(weeks=3)
    made = give(template, coach, [sam, kim], [MONDAY, later])
    sams, kims = (a.program for a in made)
    assert (sams.athlete, kims.athlete) == (sam, kim)
    assert sams.pk != kims.pk != template.program_id
    assert session_at(kims, 2, 1).scheduled_date == session_at(
        template.program, 2, 1
    ).scheduled_date + datetime.timedelta(weeks=3)
    assert kims.weeks.get(position=1).start_date == later
    assert [a.version.number for a in made] == [1, 1]
    assert set(made[0].links["exercise"]) == {str(pk) for pk in exercise_ids(template.program)}
    revision = ProgramRevision.objects.get(program=kims)
    assert (revision.actor, revision.source) == (coach, f"template:{template.pk}")


def exercise_ids(program):
    return list(
        program.weeks.values_list("sessions__exercises__id", flat=True).exclude(
            sessions__exercises__id=None
        )
    )


def test_a_template_is_no_athletes_plan_and_the_coach_is_not_their_own_athlete(coach):
    template = template_of(coach)
    assert coach.pk not in set(athletes_of(coach).values_list("athlete_id", flat=True))
    assert current(coach) is None
    assert template.program.athlete == coach


def test_a_template_edit_reaches_every_athlete_on_their_dates(coach):
    template = template_of(coach)
    sam, kim = athletes_of_coach(coach, 2)
    made = give(template, coach, [sam, kim], [MONDAY, MONDAY + datetime.timedelta(weeks=1)])
    edit_template(template, coach, set_reps(1, 2, 1, "5"))
    outcome = propagate.preview(template=template, assignment=made[1], coach=coach, overwrite=set())
    assert outcome.ok and outcome.calls == 1
    details = [d for item in outcome.items for d in item["details"]]
    assert any("5" in str(d) for d in details)
    assert exercise_at(made[1].program, 1, 2, 1).reps == "8"  # a dry run writes nothing
    outcomes = apply_all(template, coach)
    assert [o.applied for o in outcomes] == [True, True]
    for a in made:
        assert exercise_at(a.program, 1, 2, 1).reps == "5"
        a.refresh_from_db()
        assert (a.made_from, a.version.number) == (1, 2)  # made from 1, in step with 2


def test_completed_sessions_are_kept_as_done(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY])
    done = session_at(made.program, 1, 1)
    services.object_update(obj=done, fields={"completed": True, "completed_date": MONDAY})
    edit_template(template, coach, lambda t: (set_reps(1, 1, 1, "3")(t), set_reps(2, 1, 1, "3")(t)))
    [(proposal, _)] = propagate.proposals(template, [made], record_version(template))
    assert any("already done, kept" in k for k in proposal.kept)
    apply_all(template, coach)
    assert exercise_at(made.program, 1, 1, 1).reps == "8"  # done: kept
    assert exercise_at(made.program, 2, 1, 1).reps == "3"  # not done: changed


def test_an_athletes_own_edit_is_a_conflict_in_words_and_kept_unless_overwritten(coach):
    template = template_of(coach)
    sam, kim = athletes_of_coach(coach, 2)
    sams, kims = give(template, coach, [sam, kim], [MONDAY, MONDAY])
    for a in (sams, kims):
        ex = exercise_at(a.program, 2, 1, 1)
        services.object_update(obj=ex, fields={"reps": "12"})
    edit_template(template, coach, set_reps(2, 1, 1, "6"))
    [(proposal, _)] = propagate.proposals(template, [sams], record_version(template))
    [conflict] = proposal.conflicts
    assert "the template changes 8 → 6" in conflict.words
    assert "has 12 (changed for them)" in conflict.words
    chosen = all_chosen(template, coach, overwrite={kims.pk: {conflict.id}})
    apply_all(template, coach, chosen)
    assert exercise_at(sams.program, 2, 1, 1).reps == "12"  # theirs kept
    assert exercise_at(kims.program, 2, 1, 1).reps == "6"  # the coach chose to overwrite


def test_apply_to_some_leaves_the_others_behind_and_untouched(coach):
    template = template_of(coach)
    athletes = athletes_of_coach(coach, 3)
    made = give(template, coach, athletes, [MONDAY] * 3)
    edit_template(template, coach, set_reps(1, 1, 2, "4"))
    chosen = all_chosen(template, coach)
    del chosen[made[2].pk]
    apply_all(template, coach, chosen)
    assert [exercise_at(a.program, 1, 1, 2).reps for a in made] == ["4", "4", "8"]
    latest = record_version(template)
    assert list(propagate.behind(template, latest)) == [made[2]]


def test_each_athletes_apply_is_one_change_set_by_the_coach_and_undoes(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY])
    edit_template(template, coach, lambda t: (set_reps(1, 1, 1, "2")(t), set_reps(2, 2, 2, "2")(t)))
    apply_all(template, coach)
    revision = ProgramRevision.objects.filter(program=made.program).order_by("-number").first()
    assert (revision.actor, revision.via, revision.source) == (
        coach,
        "admin",
        f"template:{template.pk}",
    )
    journal.undo(change_set_of(revision), coach)
    assert exercise_at(made.program, 1, 1, 1).reps == "8"
    assert exercise_at(made.program, 2, 2, 2).reps == "8"


def test_an_exercise_added_to_the_template_is_added_in_its_place(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY + datetime.timedelta(days=7)])

    def add(tree):
        tree["weeks"][0]["sessions"][1]["exercises"].insert(
            1,
            {
                "key": "new-1",
                "fields": {
                    "name": "Nordic Curl",
                    "working_sets": "3",
                    "reps": "6",
                    "target_load": "bodyweight",
                    "rest_seconds": "90",
                    "warmup_sets": "0",
                    "group_label": "",
                    "notes": "",
                },
            },
        )

    edit_template(template, coach, add)
    apply_all(template, coach)
    names = list(
        session_at(made.program, 1, 2).exercises.order_by("position").values_list("name", flat=True)
    )
    assert names[1] == "Nordic Curl" and len(names) == 3
    made.refresh_from_db()
    added = exercise_at(made.program, 1, 2, 2)
    assert added.pk in made.links["exercise"].values()


def test_a_coach_cannot_assign_to_someone_elses_athlete(coach):
    template = template_of(coach)
    other = make_coach("coach-bob")
    (theirs,) = athletes_of_coach(other, 1, prefix="bobs")
    before = Program.objects.count()
    with pytest.raises(TemplateError, match="athletes you coach"):
        assign(template=template, coach=coach, wanted=[Wanted(theirs.pk, MONDAY)])
    assert Program.objects.count() == before
    assert not TemplateAssignment.objects.exists()


def test_an_exercise_removed_from_the_template_goes_unless_the_athlete_changed_it(coach):
    template = template_of(coach)
    sam, kim = athletes_of_coach(coach, 2)
    sams, kims = give(template, coach, [sam, kim], [MONDAY, MONDAY])
    services.object_update(
        obj=exercise_at(kims.program, 2, 2, 2), fields={"target_load": "200 lbs"}
    )

    def remove(tree):
        tree["weeks"][1]["sessions"][1]["exercises"].pop()

    edit_template(template, coach, remove)
    latest = record_version(template)
    (_, _), (kims_proposal, _) = propagate.proposals(template, [sams, kims], latest)
    [conflict] = kims_proposal.conflicts
    assert conflict.words == ("Removed from the template, but Ath1's program changed it (load).")
    apply_all(template, coach)
    assert session_at(sams.program, 2, 2).exercises.count() == 1
    assert session_at(kims.program, 2, 2).exercises.count() == 2  # theirs, kept


def test_an_athlete_whose_program_changed_since_the_page_is_refused_alone(coach):
    template = template_of(coach)
    sam, kim = athletes_of_coach(coach, 2)
    sams, kims = give(template, coach, [sam, kim], [MONDAY, MONDAY])
    edit_template(template, coach, set_reps(1, 1, 1, "6"))
    chosen = all_chosen(template, coach)
    services.object_update(obj=session_at(kims.program, 1, 2), fields={"notes": "Moved to Friday"})
    outcomes = apply_all(template, coach, chosen)
    assert [(o.applied, o.stale) for o in outcomes] == [(True, False), (False, True)]
    assert exercise_at(sams.program, 1, 1, 1).reps == "6"
    assert exercise_at(kims.program, 1, 1, 1).reps == "8"
    kims.refresh_from_db()
    assert kims.version.number == 1  # still behind: proposed again next time


def test_a_template_saved_again_since_the_page_refuses_the_whole_apply(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY])
    edit_template(template, coach, set_reps(1, 1, 1, "6"))
    seen = record_version(template).number
    chosen = all_chosen(template, coach)
    edit_template(template, coach, set_reps(1, 1, 1, "7"))
    outcomes, refused = propagate.apply(
        template=template, coach=coach, version_number=seen, chosen=chosen
    )
    assert outcomes == [] and "The template changed since this page was opened" in refused
    assert exercise_at(made.program, 1, 1, 1).reps == "8"


def test_a_session_added_to_the_template_comes_with_its_exercises_on_their_dates(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY + datetime.timedelta(weeks=2)])

    def add(tree):
        tree["weeks"][0]["sessions"].append(
            {
                "key": "new-s",
                "fields": {
                    "name": "Conditioning",
                    "day_of_week": "Saturday",
                    "scheduled_date": (MONDAY + datetime.timedelta(days=5)).isoformat(),
                    "notes": "",
                },
                "exercises": [
                    {
                        "key": "new-e",
                        "fields": {
                            "name": "Sled Push",
                            "working_sets": "4",
                            "reps": "20m",
                            "target_load": "90 kg",
                            "rest_seconds": "60",
                            "warmup_sets": "0",
                            "group_label": "",
                            "notes": "",
                        },
                    }
                ],
            }
        )

    edit_template(template, coach, add)
    apply_all(template, coach)
    added = session_at(made.program, 1, 3)
    assert added.name == "Conditioning"
    assert added.scheduled_date == MONDAY + datetime.timedelta(weeks=2, days=5)
    assert list(added.exercises.values_list("name", flat=True)) == ["Sled Push"]
    made.refresh_from_db()
    assert added.pk in made.links["session"].values()


def test_a_new_order_of_exercises_is_said_and_not_applied(coach):
    template = template_of(coach)
    (sam,) = athletes_of_coach(coach, 1)
    (made,) = give(template, coach, [sam], [MONDAY])
    before = list(session_at(made.program, 1, 1).exercises.values_list("name", flat=True))

    def swap(tree):
        exercises = tree["weeks"][0]["sessions"][0]["exercises"]
        exercises.reverse()

    edit_template(template, coach, swap)
    [(proposal, _)] = propagate.proposals(template, [made], record_version(template))
    assert any("new order of exercises is not applied" in k for k in proposal.kept)
    apply_all(template, coach)
    assert list(session_at(made.program, 1, 1).exercises.values_list("name", flat=True)) == before


def test_a_week_added_and_a_week_removed_reach_the_athlete_on_their_dates(coach):
    template = template_of(coach, weeks=3, sessions=1, exercises=1)
    (sam,) = athletes_of_coach(coach, 1)
    start = MONDAY + datetime.timedelta(weeks=1)
    (made,) = give(template, coach, [sam], [start])

    def change(tree):
        tree["weeks"].pop(1)  # week 2 goes
        tree["weeks"].append(
            {
                "key": "new-w",
                "fields": {
                    "phase": "Deload",
                    "start_date": (MONDAY + datetime.timedelta(weeks=3)).isoformat(),
                    "end_date": (MONDAY + datetime.timedelta(weeks=3, days=6)).isoformat(),
                    "description": "",
                },
                "sessions": [
                    {
                        "key": "new-ws",
                        "fields": {
                            "name": "Easy day",
                            "day_of_week": "Monday",
                            "scheduled_date": (MONDAY + datetime.timedelta(weeks=3)).isoformat(),
                            "notes": "",
                        },
                        "exercises": [],
                    }
                ],
            }
        )

    edit_template(template, coach, change)
    [outcome] = apply_all(template, coach)
    assert outcome.applied, outcome.problems
    weeks = list(made.program.weeks.order_by("position").values_list("phase", "start_date"))
    assert len(weeks) == 3
    assert weeks[-1] == ("Deload", start + datetime.timedelta(weeks=3))
    assert weeks[1][1] == start + datetime.timedelta(weeks=2)  # the template's week 3 stays
    easy = session_at(made.program, 3, 1)
    assert (easy.name, easy.scheduled_date) == ("Easy day", start + datetime.timedelta(weeks=3))
