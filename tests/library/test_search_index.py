"""The database side of the search: on PostgreSQL a trigger keeps the weighted document and GIN
indexes serve it; on SQLite the column stays empty and nothing vendor-specific was created."""

from django.db import connection

from library.models import LibraryWorkout
from library.services import workout_update
from tests.factories import LibraryWorkoutFactory


def _indexes() -> set[str]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "library_libraryworkout")
    return {name for name, info in constraints.items() if info["index"]}


def test_the_gin_indexes_exist_and_serve_word_queries_only_on_postgresql(team):
    expected = {"library_workout_search_gin", "library_workout_title_trgm"}
    if connection.vendor != "postgresql":
        assert not expected & _indexes()
        return
    assert expected <= _indexes()
    LibraryWorkoutFactory.create_batch(30, owner=team["athlete"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone() == (1,)
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(
            "EXPLAIN SELECT id FROM library_libraryworkout "
            "WHERE search_document @@ to_tsquery('english', 'squat:*')"
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "library_workout_search_gin" in plan


def test_the_search_document_follows_every_write_on_postgresql(team):
    workout = LibraryWorkoutFactory(owner=team["athlete"], title="Tempo Run", tags=["threshold"])
    document = LibraryWorkout.objects.values_list("search_document", flat=True).get(pk=workout.pk)
    if connection.vendor != "postgresql":
        assert document is None
        return
    assert "'tempo':1A" in document and "'threshold':" in document and "'squat':" in document
    workout_update(workout=workout, fields={"title": "Hill Repeats"})
    LibraryWorkout.objects.filter(pk=workout.pk).update(tags=["vo2max"])
    document = LibraryWorkout.objects.values_list("search_document", flat=True).get(pk=workout.pk)
    assert "'hill':1A" in document and "'vo2max':" in document
    assert "tempo" not in document and "threshold" not in document
