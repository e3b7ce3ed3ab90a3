"""Search on PostgreSQL: the pg_trgm extension, a trigger that keeps ``search_document`` (a
weighted tsvector) up to date on every insert and update, a GIN index on it and a trigram GIN
index on the title. Every operation is a no-op on other databases (SQLite searches in Python)."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

TABLE = "library_libraryworkout"

FORWARD = [
    f"""
CREATE OR REPLACE FUNCTION library_workout_search_document() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document :=
    setweight(to_tsvector('pg_catalog.english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('pg_catalog.english', coalesce(
      (SELECT string_agg(tag, ' ') FROM jsonb_array_elements_text(
         CASE WHEN jsonb_typeof(NEW.tags) = 'array' THEN NEW.tags ELSE '[]'::jsonb END) AS tag),
      '') || ' ' || coalesce(NEW.sport, '')), 'B') ||
    setweight(to_tsvector('pg_catalog.english', coalesce(NEW.description, '') || ' ' || coalesce(
      (SELECT string_agg(name #>> '{{}}', ' ') FROM jsonb_path_query(
         NEW.template, 'lax $.exercises[*].name') AS name), '') || ' ' || coalesce(
      NEW.template #>> '{{cardio,modality}}', '')), 'C');
  RETURN NEW;
END
$$;
""",
    f"""
CREATE TRIGGER library_workout_search_document
BEFORE INSERT OR UPDATE ON {TABLE}
FOR EACH ROW EXECUTE FUNCTION library_workout_search_document();
""",
    f"UPDATE {TABLE} SET title = title;",
    f"CREATE INDEX library_workout_search_gin ON {TABLE} USING gin (search_document);",
    f"CREATE INDEX library_workout_title_trgm ON {TABLE} USING gin (title gin_trgm_ops);",
]
BACKWARD = [
    "DROP INDEX IF EXISTS library_workout_title_trgm;",
    "DROP INDEX IF EXISTS library_workout_search_gin;",
    f"DROP TRIGGER IF EXISTS library_workout_search_document ON {TABLE};",
    "DROP FUNCTION IF EXISTS library_workout_search_document();",
]


class PostgresOnlySQL(migrations.RunSQL):
    """RunSQL that does nothing on a database other than PostgreSQL."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class TrigramExtensionKept(TrigramExtension):
    """Creates pg_trgm on PostgreSQL (a no-op elsewhere). Going back leaves it installed: other
    code may use it, and Django's own reverse would query pg_extension on SQLite too."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        pass


class Migration(migrations.Migration):
    dependencies = [("library", "0001_initial")]

    operations = [
        TrigramExtensionKept(),
        PostgresOnlySQL(sql=FORWARD, reverse_sql=BACKWARD),
    ]
