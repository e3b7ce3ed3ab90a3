"""What every family's argument models are built from: ``StrictModel`` and the field types more
than one family shares. A family's own argument models live in its app (``<app>/tools/args.py``:
the program's eleven tools in ``programs.tools.args``), declared with its tools.

The models are the schema layer of validation: types, required fields, enums and ranges. They are
strict (``extra="forbid"``, integers and booleans are not coerced from strings), so the JSON
Schema sent to providers says ``additionalProperties: false`` and a wrong type is a
``VALIDATION_ERROR`` rather than a guess. Whether the object a call names exists is the state
layer's job (each family's executors).

Every model call carries the schemas (``manage.py bench_schemas`` prints their size), so a field
is described only where its name, type, enum and bounds don't say it all: a unit, the shape of a
free text ('e.g. "8-10"'), what ``null`` means. Numbering from 1 is explained once, in the prompt.
"""

from __future__ import annotations

import datetime
import inspect
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from .vocabulary import DAY_NAMES


def _lean_schema(schema: dict[str, Any], model: type) -> None:
    """Leave out what tells a model nothing: the class docstring (it documents the code), field
    titles (the key is the name) and empty defaults (``""``, ``[]``, ``null``: a field not in
    ``required`` is optional already)."""
    if model.__doc__ and schema.get("description") == inspect.cleandoc(model.__doc__):
        del schema["description"]
    for field_schema in schema.get("properties", {}).values():
        field_schema.pop("title", None)
        if field_schema.get("default", 0) in ("", [], None):
            del field_schema["default"]


class StrictModel(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=False, json_schema_extra=_lean_schema
    )


# --- field types more than one family uses --------------------------------------------------------


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise PydanticCustomError("text_nul", "must not contain NUL characters")
    return value


# Every text field: PostgreSQL can't store NUL characters, so they are refused up front.
Text = Annotated[str, AfterValidator(_no_nul)]
Name = Annotated[Text, Field(strict=True, min_length=1, max_length=200)]
Notes = Annotated[Text, Field(strict=True, max_length=2000)]
RestSeconds = Annotated[int, Field(strict=True, ge=0, le=3600)]
IsoDate = datetime.date  # JSON Schema: a string with "format": "date"


def _day_name(value: Any) -> Any:
    if isinstance(value, str) and value.strip().capitalize() in DAY_NAMES:
        return value.strip().capitalize()
    return value


DayOfWeek = Annotated[
    Literal[DAY_NAMES],  # type: ignore[valid-type]
    BeforeValidator(_day_name),
]


class Updates(StrictModel):
    """The arguments of a change to some fields of one object: only the fields to change, at least
    one (an empty object is a VALIDATION_ERROR naming the fields there are). A family's update
    model subclasses it with its fields, each defaulting to None."""

    @model_validator(mode="after")
    def _not_empty(self) -> Any:
        if not self.model_fields_set:
            allowed = ", ".join(type(self).model_fields)
            raise ValueError(f"updates must change at least one field ({allowed})")
        return self

    def changes(self) -> dict[str, Any]:
        """Only the fields the caller actually sent, in the order the model declares them."""
        return {
            name: getattr(self, name)
            for name in type(self).model_fields
            if name in self.model_fields_set
        }
