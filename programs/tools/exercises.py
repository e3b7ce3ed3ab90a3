"""Exercise tools: modify_exercise, add_exercise, remove_exercise, reorder_exercises."""

from __future__ import annotations

from coach.tools.base import (
    FieldUpdate,
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    insert_position,
    no_target,
    quote,
)
from coach.vocabulary import plural
from programs import services
from programs.models import Exercise

from .args import (
    EXERCISE_FIELDS,
    AddExerciseArgs,
    ModifyExerciseArgs,
    RemoveExerciseArgs,
    ReorderExercisesArgs,
    exercise_model_fields,
    sent_fields,
)
from .lookups import as_written, describe_exercise, exercise_label, get_exercise, get_session


def _exercise_target(args: ModifyExerciseArgs | RemoveExerciseArgs | ReorderExercisesArgs) -> str:
    return f"Week {args.weekNumber}, Session {args.sessionNumber}, Exercise {args.exerciseNumber}"


def modify_exercise(*, ctx: ToolContext, args: ModifyExerciseArgs) -> FieldUpdate:
    """Update fields of one exercise; its position and primary key do not change.

    Only the fields present in ``updates`` change; ``updates`` must hold at least one field (an
    empty object is a VALIDATION_ERROR). Setting a field to its current value is allowed and shows
    no field change in the preview."""
    exercise = get_exercise(
        program_id=ctx.program_id,
        week_number=args.weekNumber,
        session_number=args.sessionNumber,
        number=args.exerciseNumber,
    )
    # The decision as data (the engine words it once this returns): each field's old and new
    # value, the exercise described as it is and as the write will leave it; the write is last.
    changes = sent_fields(args.updates, exercise, EXERCISE_FIELDS)
    written = {EXERCISE_FIELDS[name]: new for name, _, new in changes}
    update = FieldUpdate(
        where=_exercise_target(args),
        target=exercise_label(exercise, args.weekNumber, args.sessionNumber),
        name=exercise.name,
        before=describe_exercise(exercise),
        after=describe_exercise(as_written(exercise, written)),
        changes=changes,
        values=True,
    )
    services.object_update(obj=exercise, fields=written)
    return update


def add_exercise(*, ctx: ToolContext, args: AddExerciseArgs) -> Outcome:
    """Insert a new exercise at ``position`` (1 to count+1, or "end"); the exercises at and after
    it move down by one. warmupSets defaults to 0 and restSeconds to 120; a new exercise is never
    skipped and has no logged sets."""
    program_id = ctx.program_id
    session = get_session(
        program_id=program_id, week_number=args.weekNumber, number=args.sessionNumber
    )
    count = Exercise.objects.filter(session=session).count()
    position = insert_position(
        args.position,
        count=count,
        where=f"Week {args.weekNumber}, session {args.sessionNumber}",
        noun="exercise",
    )
    exercise = services.exercise_insert(
        session=session, position=position, **exercise_model_fields(args.exercise)
    )
    target = exercise_label(exercise, args.weekNumber, args.sessionNumber)
    return Outcome(
        summary=f"Added {quote(exercise.name)} as Week {args.weekNumber}, Session "
        f"{args.sessionNumber}, Exercise {position}.",
        details=[detail(type="add", target=target, after=describe_exercise(exercise))],
    )


def remove_exercise(*, ctx: ToolContext, args: RemoveExerciseArgs) -> Outcome:
    """Delete one exercise and its logged sets; the exercises after it move up by one.

    A session may be left with no exercises (a rest or cardio day), so removing the last exercise
    is allowed."""
    program_id = ctx.program_id
    exercise = get_exercise(
        program_id=program_id,
        week_number=args.weekNumber,
        session_number=args.sessionNumber,
        number=args.exerciseNumber,
    )
    target = exercise_label(exercise, args.weekNumber, args.sessionNumber)
    before = describe_exercise(exercise)
    services.exercise_remove(exercise=exercise)
    return Outcome(
        summary=f"Removed Week {args.weekNumber}, Session {args.sessionNumber}, Exercise "
        f"{args.exerciseNumber}: {quote(exercise.name)}.",
        details=[detail(type="remove", target=target, before=before)],
    )


def reorder_exercises(*, ctx: ToolContext, args: ReorderExercisesArgs) -> Outcome:
    """Move one exercise to ``newPosition`` (1 to the number of exercises) within its session;
    the ones in between shift by one. Moving an exercise onto its own position is a
    VALIDATION_ERROR (it would change nothing)."""
    program_id = ctx.program_id
    exercise = get_exercise(
        program_id=program_id,
        week_number=args.weekNumber,
        session_number=args.sessionNumber,
        number=args.exerciseNumber,
    )
    count = Exercise.objects.filter(session_id=exercise.session_id).count()
    if args.newPosition > count:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"newPosition must be from 1 to {count}: Week {args.weekNumber}, session "
            f"{args.sessionNumber} has only {plural(count, 'exercise')}.",
            "newPosition",
        )
    if args.newPosition == args.exerciseNumber:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Exercise {args.exerciseNumber} is already at position {args.newPosition}; "
            "choose a different newPosition.",
            "newPosition",
        )
    target = exercise_label(exercise, args.weekNumber, args.sessionNumber)
    services.exercise_move(exercise=exercise, new_position=args.newPosition)
    return Outcome(
        summary=f"Moved {quote(exercise.name)} in Week {args.weekNumber}, Session "
        f"{args.sessionNumber} from position {args.exerciseNumber} to {args.newPosition}.",
        details=[
            detail(
                type="reorder",
                target=target,
                before=f"position {args.exerciseNumber}",
                after=f"position {args.newPosition}",
                fields=[
                    {
                        "field": "position",
                        "oldValue": args.exerciseNumber,
                        "newValue": args.newPosition,
                    }
                ],
            )
        ],
    )


SPECS = [
    ToolSpec(
        name="modify_exercise",
        description=(
            "Change some fields of one exercise. skipped: true skips it this time without "
            "removing it."
        ),
        args_model=ModifyExerciseArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Change an exercise",
        execute=modify_exercise,
        target=_exercise_target,
    ),
    ToolSpec(
        name="add_exercise",
        description=(
            "Insert an exercise into a session. To replace one, remove it and add the new one at "
            "its place."
        ),
        args_model=AddExerciseArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Add an exercise",
        execute=add_exercise,
        target=no_target,
    ),
    ToolSpec(
        name="remove_exercise",
        description=(
            "Delete an exercise from a session. To skip it just this time, use modify_exercise "
            "with skipped: true."
        ),
        args_model=RemoveExerciseArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="medium",
        category="program",
        display_name="Remove an exercise",
        safety_rules=(
            "Removing a session's last exercise leaves a rest or cardio day; it never removes the session.",
        ),
        execute=remove_exercise,
        target=_exercise_target,
    ),
    ToolSpec(
        name="reorder_exercises",
        description=(
            "Move an exercise to another position within its session; those between shift by one."
        ),
        args_model=ReorderExercisesArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Move an exercise",
        safety_rules=("An exercise can't be moved onto its own position.",),
        execute=reorder_exercises,
        target=_exercise_target,
    ),
]
