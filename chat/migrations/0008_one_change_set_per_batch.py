"""One change set per applied batch: a decision's program revision (kept apart until now) is put
into the batch's journal change set, and the decision keeps only ``change_set``.

``programs`` migration 0005 gave every revision a change set of its own. Here, for each applied
decision (applied, approved, written at once) with a revision: when the decision also has a
change set (a batch that changed the program and something else), the revision's part moves into
it and the revision's own change set goes (an undo that pointed at it now points at the batch's);
otherwise the revision's change set becomes the decision's. An undone decision then names the
change set its undo put back, as new ones do. Old rows that held both ids undo through the one
journal undo."""

import django.db.models.deletion
from django.db import migrations, models

APPLIED = ("applied", "approved", "auto_applied")


def forwards(apps, schema_editor):
    BatchDecision = apps.get_model("chat", "BatchDecision")
    ContentType = apps.get_model("contenttypes", "ContentType")
    ChangeSet = apps.get_model("journal", "ChangeSet")
    Change = apps.get_model("journal", "Change")
    kind = ContentType.objects.filter(app_label="programs", model="programrevision").first()
    if kind is None:
        return
    parts = Change.objects.filter(content_type=kind, action="part")
    applied = BatchDecision.objects.filter(kind__in=APPLIED, program_revision__isnull=False)
    for decision in applied.order_by("pk").iterator():
        part = parts.filter(object_id=decision.program_revision_id).first()
        if part is None:
            continue
        own = part.change_set_id
        if decision.change_set_id is None:
            BatchDecision.objects.filter(pk=decision.pk).update(change_set_id=own)
            continue
        if own == decision.change_set_id:
            continue
        ChangeSet.objects.filter(undoes_id=own).update(undoes_id=decision.change_set_id)
        gone = ChangeSet.objects.get(pk=own)
        Change.objects.filter(change_set_id=own).update(change_set_id=decision.change_set_id)
        if gone.undone_at is not None:
            ChangeSet.objects.filter(pk=decision.change_set_id, undone_at__isnull=True).update(
                undone_at=gone.undone_at
            )
        gone.delete()
    for decision in BatchDecision.objects.filter(kind="undone").order_by("pk").iterator():
        last = (
            BatchDecision.objects.filter(batch_id=decision.batch_id, kind__in=APPLIED)
            .order_by("-pk")
            .first()
        )
        if last is not None and last.change_set_id is not None:
            BatchDecision.objects.filter(pk=decision.pk).update(change_set_id=last.change_set_id)


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0007_guardrail_and_auto_applied"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("journal", "0002_change_set_parts"),
        ("programs", "0005_revisions_in_the_journal"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.RemoveField(model_name="batchdecision", name="program_revision"),
        migrations.AlterField(
            model_name="batchdecision",
            name="change_set",
            field=models.ForeignKey(
                blank=True,
                help_text="The journal's change set that applied the batch (applied, approved, "
                "written at once: every write, the program's revision among its parts), or the "
                "one an undo put back.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="journal.changeset",
            ),
        ),
    ]
