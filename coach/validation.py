"""What a model's arguments got wrong, in a person's words: pydantic's validation errors of a
tool call turned into ``ToolError``s that name the field, what was expected and what came
(the engine's ``check_call`` and ``import_program`` use them)."""

from __future__ import annotations

from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .tools.base import ToolError
from .vocabulary import plural


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _unwrap(annotation: Any) -> Any:
    """The BaseModel inside ``X | None``, ``list[X]``, ``Annotated[X, ...]``, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _unwrap(arg)
        if found is not None:
            return found
    if get_origin(annotation) is None:
        return None
    return None


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    current: type[BaseModel] | None = model
    for part in loc:
        if isinstance(part, int):
            continue
        if current is None or part not in current.model_fields:
            return None
        current = _unwrap(current.model_fields[part].annotation)
    return current


def _got(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _message(error: dict[str, Any], model: type[BaseModel]) -> tuple[str, str | None]:
    loc = tuple(error.get("loc") or ())
    kind = error["type"]
    ctx = error.get("ctx") or {}
    value = error.get("input")
    path = _dotted(loc) or None
    name = path or "The arguments"
    if kind == "missing":
        return f"{name} is required.", path
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        allowed = ", ".join(parent.model_fields) if parent else ""
        hint = f" Allowed here: {allowed}." if allowed else ""
        return f"{name} is not a known field.{hint}", path
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return f"{name} must be at least {bound} (got {_got(value)}).", path
    if kind in ("less_than_equal", "less_than"):
        bound = ctx.get("le", ctx.get("lt"))
        return f"{name} must be at most {bound} (got {_got(value)}).", path
    if kind == "text_nul":
        return f"{name} must not contain NUL characters.", path
    if isinstance(value, str) and kind in ("too_short", "too_long"):
        kind = f"string_{kind}"
        ctx = {**ctx, "min_length": ctx.get("min_length"), "max_length": ctx.get("max_length")}
    if kind == "string_too_short":
        if ctx.get("min_length") == 1:
            return f"{name} must not be empty.", path
        return f"{name} must be at least {ctx.get('min_length')} characters.", path
    if kind == "string_too_long":
        return f"{name} must be at most {ctx.get('max_length')} characters.", path
    if kind == "too_short":
        return f"{name} must contain at least {plural(ctx.get('min_length'), 'item')}.", path
    if kind == "too_long":
        return f"{name} must contain at most {plural(ctx.get('max_length'), 'item')}.", path
    if kind.startswith("int_"):
        return f"{name} must be a whole number (got {_got(value)}).", path
    if kind.startswith("bool_"):
        return f"{name} must be true or false (got {_got(value)}).", path
    if kind.startswith("string_"):
        return f"{name} must be text (got {_got(value)}).", path
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected", "")
        return f"{name} must be one of {expected} (got {_got(value)}).", path
    if kind.startswith("date_") or kind.startswith("datetime_"):
        return f"{name} must be an ISO date like 2026-11-02 (got {_got(value)}).", path
    if kind == "list_type":
        return f"{name} must be a list (got {_got(value)}).", path
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"{name} must be an object (got {_got(value)}).", path
    if kind == "position":
        return f"{name} {error['msg']}.", path
    if kind == "value_error":
        message = str(error["msg"]).removeprefix("Value error, ")
        if path and not message.startswith(path.rsplit(".", 1)[-1]):
            return f"{path}: {message}.", path
        prefix = f"{path.rsplit('.', 1)[0]}." if path and "." in path else ""
        return f"{prefix}{message}.", path
    return f"{name}: {error['msg']}.", path


def validation_errors(exc: ValidationError, model: type[BaseModel]) -> list[ToolError]:
    errors = []
    for error in exc.errors(include_url=False):
        message, path = _message(error, model)
        errors.append(ToolError(code="VALIDATION_ERROR", message=message, field=path))
    return errors
