"""The admin's groups: "Coaches" edit the programs they coach, "Staff" read everything."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from access.policy import COACHES_GROUP, STAFF_GROUP

COACH_EDITABLE_MODELS = (
    "program",
    "week",
    "session",
    "cardioblock",
    "exercise",
    "programtemplate",
)
COACH_VIEW_ONLY_MODELS = ("setresult", "programrevision", "templateassignment", "templateversion")


def ensure_coach_group() -> Group:
    """Create or update the "Coaches" group: add/change/delete/view on the program models and
    view on logged sets (those are the athlete's) and on revisions (history is written by changes)."""
    codenames = [
        f"{action}_{model}"
        for model in COACH_EDITABLE_MODELS
        for action in ("add", "change", "delete", "view")
    ] + [f"view_{model}" for model in COACH_VIEW_ONLY_MODELS]
    group, _ = Group.objects.get_or_create(name=COACHES_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="programs", codename__in=codenames)
    )
    return group


def ensure_staff_group() -> Group:
    """Create or update the "Staff" group: view permission on every model of the programs app."""
    group, _ = Group.objects.get_or_create(name=STAFF_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="programs", codename__startswith="view_")
    )
    return group


def refresh_groups(**kwargs) -> None:
    """After ``migrate`` (``post_migrate``): the groups that exist get the permissions of models
    added since (the coaches' templates), as ``seed_demo`` would give them; none is created."""
    if Group.objects.filter(name=COACHES_GROUP).exists():
        ensure_coach_group()
    if Group.objects.filter(name=STAFF_GROUP).exists():
        ensure_staff_group()
