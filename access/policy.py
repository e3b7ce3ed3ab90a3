"""Who may read, act on and review whose data: the one rule, used by views, tools and the admin.

**Where it lives, and why.** In ``access``, a core app of its own: the rule is neither the engine's
(``coach`` runs tools, it doesn't decide who may see a household) nor any one family's (before,
``programs.access`` held it and every other family imported it). This module imports no family;
it knows *relations*, and each family tells it about the data it owns.

**Relations** ("ties") between a user and the owner of an object:

* ``SELF``: the person whose data it is: the athlete of a program, the owner of a workout or a
  log, a member of a household;
* ``COACH``: their coach (the coach of a program; for anything else the coach of any of the
  athlete's programs, or of any household member);
* ``STAFF``: a member of the "Staff" group (``STAFF_GROUP``), or a superuser: reads everything.

A superuser is also allowed everything. An anonymous or inactive user has no tie to anything.

**What each tie allows** (``READ``, ``ACT``, ``REVIEW``, and ``OWN``: the person themselves):

==========  ====  ================================================  ======  ===
tie         READ  ACT                                               REVIEW  OWN
==========  ====  ================================================  ======  ===
self        yes   yes                                               no      yes
coach       yes   yes, unless the owner kind or the model says no   yes     no
staff       yes   no (unless also self or coach)                    no      no
superuser   yes   yes                                               yes     no
==========  ====  ================================================  ======  ===

**Objects name their owner** with ``get_owner_object()`` (a program, a user, a household); an
object without it is its own owner. **Owner kinds** are declared by the family that has them, in
its ``access`` module: ``OWNERS`` (a list of ``Owner``), ``COACH_READS_ONLY`` (models whose rows
the owner's coach reads and never changes, such as a library workout) and, for the one family that
knows who coaches whom, ``COACHING`` (a ``Coaching``). The policy discovers these declarations in every
installed app once, at start-up (``AccessConfig.ready()``), as the tool registry discovers
``tools`` modules; a user (the athlete
of training data, logs, workouts) is an owner kind the policy knows itself.

**The same rule as a queryset scope**: ``scope(user, model, lookup=..., action=...)`` is a ``Q`` on
``model``'s rows whose owner (reached through ``lookup``, "" when the rows are the owners) the
user may reach; ``None`` means every row. ``visible`` applies it. Someone else's object is "not
found" (a 404, a tool's ``NOT_FOUND``), never "forbidden": callers use the scope to look it up.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db.models import Model, Q, QuerySet

STAFF_GROUP = "Staff"  # reads everything, changes nothing (created by ``programs.admin``)
COACHES_GROUP = "Coaches"  # the admin permissions a coach needs

READ, ACT, REVIEW, OWN = "read", "act", "review", "own"
ACTIONS = (READ, ACT, REVIEW, OWN)
DECLARATIONS = "access"  # the module of each installed app that declares its owner kinds


class Tie(enum.Enum):
    SELF = "self"
    COACH = "coach"
    STAFF = "staff"


@dataclass(frozen=True)
class Owner:
    """How the policy finds the people of one kind of owner, declared by the family that has it.

    ``people_lookup`` leads from the owner's model to the users whose data it is (``"athlete"``,
    ``"members__user"``; ``many`` when it crosses a to-many relation). A lookup of one field of the
    owner's own row (a foreign key, or ``"pk"``) is read from the row itself; any other needs
    ``people(owner)``, the ids of those users. ``coaches_lookup`` (a field of the owner's row) or
    ``coaches(owner)`` name the owner's own coach (a program's); without them its coaches are those
    of its people (``Coaching``). ``coach_acts`` is False when the coach only reads (a household
    is its members' to change). Read from the row, a declaration is data: the policy asks the
    family nothing when it checks one object."""

    model: type[Model] | str
    people_lookup: str
    people: Callable[[Any], Collection[int]] | None = None
    coaches: Callable[[Any], Collection[int | None]] | None = None
    coaches_lookup: str = ""
    coach_acts: bool = True
    many: bool = False

    def __post_init__(self) -> None:
        if self.people is None and (self.many or "__" in self.people_lookup):
            raise ValueError(
                f"{self.label}: people_lookup {self.people_lookup!r} crosses a relation; "
                "declare people(owner) too."
            )
        if self.coaches is None and "__" in self.coaches_lookup:
            raise ValueError(f"{self.label}: coaches_lookup crosses a relation; declare coaches.")
        if self.coaches is not None and not self.coaches_lookup:
            raise ValueError(f"{self.label}: coaches(owner) needs its coaches_lookup (scopes).")

    def people_of(self, owner: Any) -> set[int]:
        if self.people is not None:
            return set(self.people(owner))
        return {_field_value(owner, self.people_lookup)}

    def coaches_of(self, owner: Any) -> set[int | None] | None:
        """The owner's own coaches, or None when its coaches are those of its people."""
        if self.coaches is not None:
            return set(self.coaches(owner))
        if self.coaches_lookup:
            return {_field_value(owner, self.coaches_lookup)}
        return None

    @property
    def label(self) -> str:
        return self.model if isinstance(self.model, str) else self.model._meta.label


def _field_value(row: Any, name: str) -> Any:
    """The value of one field of ``row`` as stored (a foreign key's id; ``"pk"``: the key)."""
    meta = row._meta
    return getattr(row, (meta.pk if name == "pk" else meta.get_field(name)).attname)


@dataclass(frozen=True)
class Coaching:
    """Who coaches whom: rows of ``model`` each pairing an athlete with their coach (a program)."""

    model: type[Model]
    athlete: str = "athlete"
    coach: str = "coach"


@cache
def _declarations() -> tuple[dict[str, Owner], tuple[Coaching, ...], frozenset[str]]:
    """Every installed app's ``access`` declarations, read once; a user is the policy's own."""
    user = Owner(model=settings.AUTH_USER_MODEL, people_lookup="pk")
    owners = {user.label: user}
    coaching: list[Coaching] = []
    coach_reads_only: set[str] = set()
    for config in apps.get_app_configs():
        if config.name == __package__:
            continue
        try:
            module = import_module(f"{config.name}.{DECLARATIONS}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{config.name}.{DECLARATIONS}":
                raise
            continue
        for owner in getattr(module, "OWNERS", ()):
            owners[owner.label] = owner
        if getattr(module, "COACHING", None) is not None:
            coaching.append(module.COACHING)
        coach_reads_only |= {model._meta.label for model in getattr(module, "COACH_READS_ONLY", ())}
    return owners, tuple(coaching), frozenset(coach_reads_only)


def owner_kind(model: type[Model]) -> Owner:
    owners, _, _ = _declarations()
    label = model._meta.concrete_model._meta.label
    if label not in owners:
        raise LookupError(f"No access rule declares {label} as an owner (access.policy.Owner).")
    return owners[label]


# --- who is who -------------------------------------------------------------------------------


def is_active(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_active", False))


def is_superuser(user: Any) -> bool:
    return is_active(user) and bool(user.is_superuser)


def is_staff_reader(user: Any) -> bool:
    """A superuser or a member of the Staff group: reads everything (cached on the user)."""
    if not is_active(user):
        return False
    if user.is_superuser:
        return True
    if not hasattr(user, "_spotter_in_staff_group"):
        user._spotter_in_staff_group = user.groups.filter(name=STAFF_GROUP).exists()
    return user._spotter_in_staff_group


def _coaching() -> Coaching | None:
    _, coaching, _ = _declarations()
    if len(coaching) > 1:
        raise LookupError("More than one app declares COACHING; who coaches whom has one source.")
    return coaching[0] if coaching else None


def athletes_of(user: Any) -> QuerySet:
    """The ids (``values``) of the athletes ``user`` coaches; empty for anyone else."""
    coaching = _coaching()
    if not is_active(user) or coaching is None:
        return get_user_model_cls().objects.none().values("pk")
    return coaching.model.objects.filter(**{coaching.coach: user}).values(f"{coaching.athlete}_id")


def coached_athletes() -> QuerySet:
    """The ids (``values``) of every athlete someone coaches (for work done for every coach)."""
    coaching = _coaching()
    if coaching is None:
        return get_user_model_cls().objects.none().values("pk")
    return coaching.model.objects.filter(**{f"{coaching.coach}__isnull": False}).values(
        f"{coaching.athlete}_id"
    )


def coaches_of(user: Any) -> QuerySet:
    """The ids (``values``) of the coaches of ``user`` (the coach of any of their programs)."""
    coaching = _coaching()
    if not is_active(user) or coaching is None:
        return get_user_model_cls().objects.none().values("pk")
    return coaching.model.objects.filter(
        **{coaching.athlete: user, f"{coaching.coach}__isnull": False}
    ).values(f"{coaching.coach}_id")


def coaches(user: Any, athlete_ids: Collection[int | None]) -> bool:
    """``user`` coaches one of the athletes ``athlete_ids`` (one query)."""
    coaching = _coaching()
    wanted = [pk for pk in athlete_ids if pk is not None]
    if not wanted or coaching is None:
        return False
    return athletes_of(user).filter(**{f"{coaching.athlete}_id__in": wanted}).exists()


def get_user_model_cls() -> type[Model]:
    return apps.get_model(settings.AUTH_USER_MODEL)


# --- one object -------------------------------------------------------------------------------


def owner_of(obj: Any) -> Any:
    """What ``obj`` belongs to: its ``get_owner_object()``, or itself."""
    get_owner = getattr(obj, "get_owner_object", None)
    return get_owner() if get_owner is not None else obj


def ties(user: Any, obj: Any) -> frozenset[Tie]:
    """Every tie ``user`` has to the owner of ``obj`` (empty for anonymous or inactive users)."""
    owner = owner_of(obj)
    return _ties(user, owner, owner_kind(owner._meta.model))


def _ties(user: Any, owner: Any, kind: Owner) -> frozenset[Tie]:
    if not is_active(user):
        return frozenset()
    found = set()
    people = kind.people_of(owner)
    if user.pk in people:
        found.add(Tie.SELF)
    own_coaches = kind.coaches_of(owner)
    if own_coaches is not None:
        if user.pk in own_coaches:
            found.add(Tie.COACH)
    elif coaches(user, people):
        found.add(Tie.COACH)
    if is_staff_reader(user):
        found.add(Tie.STAFF)
    return frozenset(found)


def allows(user: Any, obj: Any, action: str) -> bool:
    """May ``user`` do ``action`` (``READ``, ``ACT``, ``REVIEW``, ``OWN``) on ``obj``?"""
    if action not in ACTIONS:
        raise ValueError(f"Unknown action {action!r}; one of {ACTIONS}.")
    owner = owner_of(obj)
    kind = owner_kind(owner._meta.model)
    found = _ties(user, owner, kind)
    if action == OWN:
        return Tie.SELF in found
    if is_superuser(user):
        return True
    if action == READ:
        return bool(found)
    if action == REVIEW:
        return Tie.COACH in found
    return Tie.SELF in found or (Tie.COACH in found and _coach_acts(kind, obj._meta.model))


def _coach_acts(kind: Owner, model: type[Model]) -> bool:
    """The owner's coach changes rows of ``model``, unless its owner kind or its family says the
    coach only reads (``Owner.coach_acts``, a family's ``COACH_READS_ONLY``)."""
    _, _, reads_only = _declarations()
    return kind.coach_acts and model._meta.concrete_model._meta.label not in reads_only


def may_read(user: Any, obj: Any) -> bool:
    return allows(user, obj, READ)


def may_act(user: Any, obj: Any) -> bool:
    return allows(user, obj, ACT)


def may_review(user: Any, obj: Any) -> bool:
    """The coach approves (a superuser may too)."""
    return allows(user, obj, REVIEW)


def owns(user: Any, obj: Any) -> bool:
    """``user`` is the person whose data it is (the athlete, a household member)."""
    return allows(user, obj, OWN)


# --- querysets --------------------------------------------------------------------------------

NOTHING = Q(pk__in=[])


def owner_model(model: type[Model], lookup: str) -> type[Model]:
    """The model reached from ``model`` through ``lookup`` ("" is ``model`` itself)."""
    for part in filter(None, lookup.split("__")):
        model = model._meta.get_field(part).related_model
    return model


def scope(user: Any, model: type[Model], *, lookup: str = "", action: str = READ) -> Q | None:
    """The rows of ``model`` whose owner (reached through ``lookup``) ``user`` may ``action``;
    ``None`` means every row, ``NOTHING`` none."""
    if action not in ACTIONS:
        raise ValueError(f"Unknown action {action!r}; one of {ACTIONS}.")
    if not is_active(user):
        return NOTHING
    if action != OWN and (is_superuser(user) or (action == READ and is_staff_reader(user))):
        return None
    kind = owner_kind(owner_model(model, lookup))
    own = Q(**{kind.people_lookup: user.pk})
    if kind.coaches_lookup:
        coach = Q(**{kind.coaches_lookup: user.pk})
    else:
        coach = Q(**{f"{kind.people_lookup}__in": athletes_of(user)})
    if action == OWN:
        rule = own
    elif action == REVIEW:
        rule = coach
    elif action == ACT and not _coach_acts(kind, model):
        rule = own
    else:
        rule = own | coach
    if kind.many:  # one row per owner, however many of its people match
        owners = owner_model(model, lookup).objects.filter(rule).values("pk")
        return Q(**{f"{lookup}__in" if lookup else "pk__in": owners})
    return _prefixed(rule, lookup)


def _prefixed(rule: Q, lookup: str) -> Q:
    if not lookup:
        return rule
    prefixed = Q()
    prefixed.connector, prefixed.negated = rule.connector, rule.negated
    for child in rule.children:
        if isinstance(child, Q):
            prefixed.children.append(_prefixed(child, lookup))
        else:
            key, value = child
            prefixed.children.append((f"{lookup}__{key}", value))
    return prefixed


def visible(queryset: QuerySet, user: Any, *, lookup: str = "", action: str = READ) -> QuerySet:
    """``queryset`` narrowed to the rows ``user`` may ``action`` (see ``scope``)."""
    rule = scope(user, queryset.model, lookup=lookup, action=action)
    return queryset if rule is None else queryset.filter(rule)
