"""How the engine finds the families: the ``tools`` module of every installed app that declares
``TOOLS``, in ``INSTALLED_APPS`` order, as Django's admin finds each app's ``admin.py``. Importing
this module imports no family (``declarations()`` does, when called), so a family's own modules
may import the engine's modules that use it (``coach.plan``) without a cycle."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from django.apps import apps
from django.utils.module_loading import module_has_submodule

# The module a family app declares its tools in (``TOOLS``, ``PURPOSES``), as ``admin`` for the admin.
DECLARATIONS = "tools"


# The modules found for each set of installed apps (the apps' names, in order): looking for a
# submodule asks the import system for every app each time (a few hundred microseconds a call,
# several calls a page); a change of the installed apps (a test's override) is another key.
_FOUND: dict[tuple[str, ...], list[ModuleType]] = {}


def declarations() -> list[ModuleType]:
    """The ``tools`` module of every installed app that declares ``TOOLS``, in INSTALLED_APPS
    order (the engine's own ``coach.tools`` declares none)."""
    configs = list(apps.get_app_configs())
    key = tuple(config.name for config in configs)
    if key not in _FOUND:
        _FOUND[key] = _find(configs)
    return list(_FOUND[key])


def _find(configs: list) -> list[ModuleType]:
    found = []
    for config in configs:
        if not module_has_submodule(config.module, DECLARATIONS):
            continue
        module = import_module(f"{config.name}.{DECLARATIONS}")
        if hasattr(module, "TOOLS"):
            found.append(module)
    return found
