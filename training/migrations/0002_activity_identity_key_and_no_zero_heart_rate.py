"""Existing activities get the identity key imports now use, and a stored heart rate of 0
(a file without a strap) becomes no value.

The key was "SPORT:start minute" (two multisport legs could share it, and one swim had two
keys, "SWIMMING:…" from its FIT and "OTHER:…" from its TCX). It is now
"at:start second:duration:distance:device" (``training.dedupe.identity_key``, written out
here so this migration keeps meaning what it meant). Keys of other kinds ("day:", "session:",
"demo:") are left as they are. A key already taken by another activity of the athlete gets the
activity's id appended, so no row is lost to the unique constraint.
"""

import datetime
import re

from django.db import migrations

OLD_KEY = re.compile(r"^(RUNNING|CYCLING|SWIMMING|STRENGTH|OTHER):\d{4}-\d\d-\d\dT\d\d:\d\d$")


def _key(activity) -> str:
    moment = activity.start.astimezone(datetime.UTC)
    seconds = activity.elapsed_s or activity.moving_s or 0
    metres = round(activity.distance_m or 0)
    return f"at:{moment:%Y-%m-%dT%H:%M:%S}:{seconds}:{metres}:{activity.device_id}"[:200]


def forwards(apps, schema_editor):
    Activity = apps.get_model("training", "Activity")
    Activity.objects.filter(avg_hr=0).update(avg_hr=None)
    Activity.objects.filter(max_hr=0).update(max_hr=None)
    taken: dict[int, set[str]] = {}
    for athlete_id, key in Activity.objects.values_list("athlete_id", "dedupe_key"):
        taken.setdefault(athlete_id, set()).add(key)
    rows = Activity.objects.filter(dedupe_key__regex=OLD_KEY.pattern).order_by("pk")
    for activity in rows.iterator():
        key = _key(activity)
        if key in taken[activity.athlete_id]:
            key = f"{key[:180]}#{activity.pk}"
        taken[activity.athlete_id].add(key)
        Activity.objects.filter(pk=activity.pk).update(dedupe_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("training", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
