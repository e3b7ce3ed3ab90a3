"""Every program revision becomes one part of a journal change set (``programs.history``): each
existing revision gets a change set of its own (its athlete, its time, its summary), and an undo
revision's change set ``undoes`` the one of the revision it undid, which is marked undone at the
undo's time. Chat batches' revisions are then folded into their batch's change set by ``chat``
migration 0008."""

from django.db import migrations


def forwards(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ChangeSet = apps.get_model("journal", "ChangeSet")
    Change = apps.get_model("journal", "Change")
    ProgramRevision = apps.get_model("programs", "ProgramRevision")
    kind, _ = ContentType.objects.get_or_create(app_label="programs", model="programrevision")
    held = set(
        Change.objects.filter(content_type=kind, action="part").values_list("object_id", flat=True)
    )
    sets = {}
    revisions = ProgramRevision.objects.select_related("program").order_by("pk")
    for revision in revisions.iterator():
        if revision.pk in held:
            continue
        change_set = ChangeSet.objects.create(
            athlete_id=revision.program.athlete_id, summary=(revision.summary or "")[:300]
        )
        ChangeSet.objects.filter(pk=change_set.pk).update(created_at=revision.created_at)
        Change.objects.create(
            change_set=change_set, content_type=kind, object_id=revision.pk, action="part"
        )
        sets[revision.pk] = change_set.pk
    for revision in revisions.filter(undoes__isnull=False).iterator():
        mine, undone = sets.get(revision.pk), sets.get(revision.undoes_id)
        if mine is None or undone is None:
            continue
        ChangeSet.objects.filter(pk=mine).update(undoes_id=undone)
        ChangeSet.objects.filter(pk=undone).update(undone_at=revision.created_at)


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("journal", "0002_change_set_parts"),
        ("programs", "0004_session_skipped"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
