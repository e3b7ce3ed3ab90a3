"""The recipe card of a finished read: the ``recipe_create`` call it becomes, dry-run by the
engine (``coach.engine.preview_calls``, the chat's and the program editor's dry run), with every
line editable, and applied by the engine (``apply_batch``) when the athlete presses Apply.

The card lives on the photo's own page, not in the chat: a conversation belongs to a training
program (``chat.models.Conversation.program``), and a recipe is the household's, so a recipe read
from a photo must not need a program (an athlete without one got a 404 from the chat's offer).
``recipe_create`` needs no program (``ToolSpec.needs_program`` is False): the engine runs it with
``program=None``, the same validation, the same journal entry (its change set) as from the chat.

Each ingredient line of the card is text ("0.5 cup rolled oats, toasted"), read back by the
nutrition family's line reader, the rule typed recipes follow; a line it can't read is named and
nothing is saved. With **Keep the photo with the recipe** ticked, Apply stores the photo beside
the recipe (``RecipePhoto``: re-encoded, no EXIF) and drops the bytes the read held; unticked, the
bytes are dropped and nothing of the picture stays. **Undo** takes the recipe back through the
journal, as the chat's Undo does (its photo goes with it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from coach.engine import BatchResult, apply_batch, preview_calls
from coach.toolcalls import ToolCall, new_call_id
from coach.tools.base import ToolContext
from journal import services as journal
from journal.models import Change, ChangeAction
from nutrition.services import LineReader, ReadLine

from . import images
from .models import PhotoRead, RecipePhoto
from .recipe_text import Reading
from .services import MAX_NOTES, recipe_call

MAX_LINES = 100  # ingredient lines on one card
MAX_TITLE = 200
VIA = "photo"


@dataclass
class Card:
    """What the card shows and the athlete may change; ``problems`` say what stops an Apply."""

    title: str
    lines: list[str]
    instructions: str = ""
    notes: str = ""
    keep: bool = False
    problems: list[str] = field(default_factory=list)
    read_lines: list[ReadLine] = field(default_factory=list)


def line_text(line: ReadLine) -> str:
    """A line as the card shows it, which the line reader reads back to the same line."""
    amount = f"{line.quantity.normalize():f}"
    text = (
        f"{amount} {line.ingredient}"
        if line.unit == "whole"
        else (f"{amount} {line.unit} {line.ingredient}")
    )
    return f"{text}, {line.prep_state}" if line.prep_state else text


def from_read(read: PhotoRead) -> Card | None:
    """The card of a finished read as read (None: nothing to propose, or applied already)."""
    found = recipe_call(read)
    if found is None or read.recipe_id is not None:
        return None
    reading = Reading.from_json(read.reading)
    return Card(
        title=found.title,
        lines=[line_text(line) for line in reading.ingredients[:MAX_LINES]],
        instructions=found.arguments.get("instructions", ""),
        notes=found.arguments.get("notes", ""),
        keep=read.keep,
        read_lines=reading.ingredients[:MAX_LINES],
    )


def from_post(data: Any, reader: LineReader) -> Card:
    """The card as the athlete sent it back; each line read again, a line it can't read named."""
    texts = [" ".join(t.split()) for t in data.getlist("line")]
    card = Card(
        title=" ".join((data.get("title") or "").split())[:MAX_TITLE],
        lines=[t for t in texts if t][: MAX_LINES + 1],
        instructions=(data.get("instructions") or "").strip()[:MAX_NOTES],
        notes=(data.get("notes") or "").strip()[:MAX_NOTES],
        keep=data.get("keep") == "on",
    )
    if not card.title:
        card.problems.append("Give the recipe a title.")
    if len(card.lines) > MAX_LINES:
        card.problems.append(f"A recipe takes at most {MAX_LINES} ingredient lines.")
    for n, text in enumerate(card.lines[:MAX_LINES], start=1):
        if read := reader.read(text):
            card.read_lines.append(read)
        else:
            card.problems.append(
                f"Line {n} (“{text[:80]}”) isn't a quantity, a unit and a known ingredient: "
                "correct it or clear it."
            )
    if not card.lines:
        card.problems.append("A recipe needs at least one ingredient line.")
    return card


def _call(card: Card) -> ToolCall:
    arguments: dict[str, Any] = {
        "title": card.title,
        "ingredients": [line.as_args() for line in card.read_lines],
    }
    if card.instructions:
        arguments["instructions"] = card.instructions
    if card.notes:
        arguments["notes"] = card.notes
    return ToolCall(id=new_call_id(), name="recipe_create", arguments=arguments)


def preview(read: PhotoRead, card: Card) -> BatchResult:
    """The engine's dry run of the card: what Apply would make, or why it can't (rolled back)."""
    ctx = ToolContext(athlete=read.owner, program=None, user=read.owner)
    return preview_calls(ctx=ctx, calls=[_call(card)])


@dataclass
class Applied:
    recipe_id: int | None
    batch: BatchResult | None = None
    problems: list[str] = field(default_factory=list)


def _created_recipe(change_set_id: int | None) -> int | None:
    """The id of the recipe the apply created, read from its change set in the journal (data,
    not the call's summary; the model named by its label, as the foreign keys name it)."""
    return (
        Change.objects.filter(
            change_set_id=change_set_id,
            action=ChangeAction.CREATED,
            content_type__app_label="nutrition",
            content_type__model="recipe",
        )
        .values_list("object_id", flat=True)
        .first()
    )


def apply(read: PhotoRead, card: Card) -> Applied:
    """Save the card as a recipe (once per read) and, when the athlete keeps it, the photo with
    it; the bytes the read held are dropped either way. Nothing is written on a problem."""
    if card.problems:
        return Applied(recipe_id=None, problems=card.problems)
    with transaction.atomic():
        # One person's Applies one at a time (their user row is the lock, as for sending): the
        # bound on kept photos can't be passed by two at once.
        get_user_model().objects.select_for_update().filter(pk=read.owner_id).first()
        locked = PhotoRead.objects.select_for_update().get(pk=read.pk)
        if locked.recipe_id is not None:
            return Applied(recipe_id=None, problems=["This photo is saved as a recipe already."])
        batch = apply_batch(
            athlete=locked.owner,
            program=None,
            user=locked.owner,
            calls=[_call(card).to_dict()],
            version=None,
            via=VIA,
            source=f"photo {locked.pk}",
        )
        recipe_id = _created_recipe(batch.change_set_id) if batch.success else None
        if recipe_id is None:
            errors = [e.message for r in batch.results for e in r.errors]
            return Applied(recipe_id=None, batch=batch, problems=errors or ["Nothing was saved."])
        problems = []
        kept = RecipePhoto.objects.filter(owner=locked.owner).count()
        if card.keep and kept >= settings.MEDIA_KEPT_PHOTOS_MAX:
            problems.append(
                f"The recipe is saved, the photo not: you keep {kept} photos with recipes, at "
                f"most {settings.MEDIA_KEPT_PHOTOS_MAX}; deleting a recipe deletes its photo."
            )
        elif card.keep and locked.photo is not None:
            try:
                image, width, height = images.stripped(bytes(locked.photo))
            except images.PhotoError as exc:
                problems.append(f"The recipe is saved, the photo not: {exc}")
            else:
                RecipePhoto.objects.create(
                    owner=locked.owner, recipe_id=recipe_id, image=image, width=width, height=height
                )
        elif card.keep:
            problems.append(
                "The recipe is saved; the photo was no longer held (it waits for Apply at most "
                "a day), so it isn't kept."
            )
        locked.recipe_id, locked.photo = recipe_id, None
        locked.change_set_id = batch.change_set_id
        locked.save(update_fields=["recipe", "photo", "change_set_id"])
    return Applied(recipe_id=recipe_id, batch=batch, problems=problems)


def undo(read: PhotoRead) -> str:
    """Take back the recipe the read's Apply made (the journal's undo: the recipe is deleted as
    the nutrition family deletes, and its kept photo with it); "" or why not, in words. The card
    comes back, to apply again."""
    with transaction.atomic():
        locked = PhotoRead.objects.select_for_update().get(pk=read.pk)
        if locked.change_set_id is None:
            return "There is nothing of this photo's to undo."
        try:
            journal.undo(
                locked.change_set_id, actor=locked.owner, summary=f"Undo of photo {locked.pk}"
            )
        except journal.JournalError as exc:
            return exc.message
        locked.recipe_id = locked.change_set_id = None
        locked.save(update_fields=["recipe", "change_set_id"])
    return ""
