"""The argument models of the nutrition tools (seed 002), in the seed's snake_case.

Strict like ``coach.schemas``: wrong types and unknown fields are a VALIDATION_ERROR with the
field. Quantities are JSON numbers (never text) read as exact decimals (``0.1`` is 0.1), above 0,
at most three decimal places; units are exactly seed 002's list. Ingredients are named by their
exact known name (the model knows names, not ids). Lists are named by id or by exact name, so a
list created earlier in the same batch can be filled in it.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from coach.schemas import Name, StrictModel, Text
from nutrition.models import UNITS, MealType
from nutrition.services import NutritionError, check_quantity

MAX_LINES = 100
MAX_RANGE_DAYS = 62


def _quantity(value: Any) -> Decimal:
    try:
        return check_quantity(value, "quantity")
    except NutritionError as exc:
        raise PydanticCustomError("quantity", exc.message.removeprefix("quantity ")) from None


Quantity = Annotated[
    Decimal, PlainValidator(_quantity), WithJsonSchema({"type": "number", "exclusiveMinimum": 0})
]
Unit = Literal[UNITS]  # type: ignore[valid-type]
Id = Annotated[int, Field(strict=True, ge=1)]
IngredientName = Annotated[
    Text, Field(strict=True, min_length=1, max_length=100, description="Exact known name")
]
PrepState = Annotated[Text, Field(strict=True, max_length=50, description='e.g. "chopped"')]
Tag = Annotated[Text, Field(strict=True, min_length=1, max_length=40)]
LongText = Annotated[Text, Field(strict=True, max_length=8000)]
ListName = Annotated[Text, Field(strict=True, min_length=1, max_length=100)]


class IngredientLine(StrictModel):
    ingredient: IngredientName
    quantity: Quantity
    unit: Unit
    prep_state: PrepState = ""


class PushLine(IngredientLine):
    source_recipe_id: Id | None = None


class ListRef(StrictModel):
    grocery_list_id: Id | None = None
    grocery_list_name: ListName | None = Field(default=None, description="Or the exact name")

    @model_validator(mode="after")
    def _one_list(self) -> Any:
        if (self.grocery_list_id is None) == (self.grocery_list_name is None):
            raise ValueError("give grocery_list_id or grocery_list_name (exactly one)")
        return self


class ListOrDefault(ListRef):
    """A list by id or exact name, or neither: the household's grocery list (its only one, or a
    new one called ``DEFAULT_LIST`` when it has none; several are a question, never a guess)."""

    @model_validator(mode="after")
    def _one_list(self) -> Any:
        if self.grocery_list_id is not None and self.grocery_list_name is not None:
            raise ValueError("give grocery_list_id or grocery_list_name, not both")
        return self


# --- reads ---------------------------------------------------------------------------------------


class RecipeListArgs(StrictModel):
    tags: list[Tag] = Field(default_factory=list, max_length=10, description="All must match")
    min_rating: int | None = Field(default=None, strict=True, ge=1, le=5)
    query: Text | None = Field(
        default=None, strict=True, max_length=100, description="In titles, ingredients or tags"
    )


class RecipeGetArgs(StrictModel):
    recipe_id: Id


class PlannerListMealsArgs(StrictModel):
    start_date: datetime.date
    end_date: datetime.date

    @model_validator(mode="after")
    def _range(self) -> PlannerListMealsArgs:
        days = (self.end_date - self.start_date).days
        if days < 0:
            raise ValueError("end_date must not be before start_date")
        if days >= MAX_RANGE_DAYS:
            raise ValueError(f"the range can be at most {MAX_RANGE_DAYS} days")
        return self


class PlannerGetMealArgs(StrictModel):
    date: datetime.date
    meal_type: Literal[tuple(MealType.values)] | None = None  # type: ignore[valid-type]


class GroceryListListsArgs(StrictModel):
    pass


class GroceryGetListArgs(ListRef):
    pass


# --- writes --------------------------------------------------------------------------------------


class RecipeCreateArgs(StrictModel):
    title: Name
    ingredients: list[IngredientLine] = Field(min_length=1, max_length=MAX_LINES)
    instructions: LongText = ""
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    rating: int | None = Field(default=None, strict=True, ge=1, le=5)
    notes: LongText = ""


class RecipeUpdateArgs(StrictModel):
    recipe_id: Id
    title: Name | None = None
    ingredients: list[IngredientLine] | None = Field(
        default=None, min_length=1, max_length=MAX_LINES
    )
    instructions: LongText | None = None
    tags: list[Tag] | None = Field(default=None, max_length=20)
    rating: int | None = Field(default=None, strict=True, ge=1, le=5)
    notes: LongText | None = None

    def changes(self) -> dict[str, Any]:
        fields = self.model_fields_set - {"recipe_id"}
        return {
            name: (
                [line.model_dump() for line in self.ingredients]
                if name == "ingredients"
                else getattr(self, name)
            )
            for name in sorted(fields)
        }

    @model_validator(mode="after")
    def _something(self) -> RecipeUpdateArgs:
        if not self.model_fields_set - {"recipe_id"}:
            raise ValueError("give at least one field to change")
        return self


class PlannerAddMealArgs(StrictModel):
    recipe_id: Id
    date: datetime.date
    meal_type: Literal[tuple(MealType.values)]  # type: ignore[valid-type]


class PlannerRemoveMealArgs(StrictModel):
    planner_meal_id: Id


class GroceryCreateListArgs(StrictModel):
    name: ListName


class GroceryPushIngredientsArgs(ListOrDefault):
    recipe_ids: list[Id] = Field(
        default_factory=list, max_length=20, description="Push these recipes' ingredients"
    )
    ingredients: list[PushLine] = Field(default_factory=list, max_length=MAX_LINES)

    @model_validator(mode="after")
    def _something(self) -> GroceryPushIngredientsArgs:
        if not self.recipe_ids and not self.ingredients:
            raise ValueError("give recipe_ids or ingredients")
        return self


class GroceryAddItemArgs(ListOrDefault):
    ingredient: IngredientName | None = Field(default=None, description="A known ingredient")
    name: ListName | None = Field(default=None, description="Free text if no ingredient")
    quantity: Quantity
    unit: Unit
    prep_state: PrepState = ""

    @model_validator(mode="after")
    def _named(self) -> GroceryAddItemArgs:
        if (self.ingredient is None) == (self.name is None):
            raise ValueError("give ingredient or name (exactly one)")
        return self


class GroceryItemArgs(StrictModel):
    grocery_item_id: Id
