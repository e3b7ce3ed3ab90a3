"""Where the rule lives: the policy (``access/``) imports none of the project's other apps, no
family imports another family's ``access`` module (each declares its own relations to the
policy), and the policy discovers every family's declarations."""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps
from django.conf import settings

from access import policy
from tests.test_module_imports import OUR_APPS, imported, product_modules

ROOT = Path(settings.BASE_DIR)
FAMILIES = {"programs", "training", "library", "nutrition", "wellness", "media"}


def imports_of(path: Path) -> list[str]:
    return [name for node in ast.walk(ast.parse(path.read_text())) for name in imported(node)]


def test_the_policy_imports_no_other_app_of_ours():
    others = OUR_APPS - {"access"}
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "access").rglob("*.py"))
        for name in imports_of(path)
        if name.split(".")[0] in others
    ]
    assert offenders == []


def test_no_family_imports_another_familys_access_module():
    """(That the chat and the engine name no family at all is the layering's own rule.)"""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in product_modules()
        if path.relative_to(ROOT).parts[0] in FAMILIES
        for name in imports_of(path)
        if name.endswith(".access") and name.split(".")[0] != path.relative_to(ROOT).parts[0]
    ]
    assert offenders == []


def test_the_policy_reads_its_declarations_at_start_up():
    """``AccessConfig.ready()`` reads them, so no request pays for finding them."""
    policy._declarations.cache_clear()
    apps.get_app_config("access").ready()
    assert policy._declarations.cache_info().currsize == 1
    hits = policy._declarations.cache_info().hits
    policy._declarations()
    assert policy._declarations.cache_info().hits == hits + 1


def test_the_policy_discovers_each_familys_declarations(db):
    owners, coaching, coach_reads_only = policy._declarations()
    assert {"programs.Program", "nutrition.Household", settings.AUTH_USER_MODEL} <= set(owners)
    # athletes' programs: a coach's templates (programs of their own) are no coaching
    assert [c.model._meta.label for c in coaching] == ["programs.AthleteProgram"]
    assert "library.LibraryWorkout" in coach_reads_only
