"""The preview card's buttons: Apply Changes, Cancel, Edit and Save an item, Remove an item, and
Undo on an applied change. Each finds the athlete's own batch (404 otherwise), calls one function
of ``chat.proposals`` and renders the card with the messages it added."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, reswap, retarget

from .. import proposals
from ..access import athlete_conversations
from ..cards import card_items
from ..forms import DecisionForm
from ..models import Message, PendingToolBatch
from .common import PAGE, conversation_url, login_required, regions, undoable_events

STALE_NOTE = "The plan changed since you saw it — review the updated changes."
FIELD_PREFIX = "f:"


def _own_batch(request: HttpRequest, batch_id: int) -> PendingToolBatch:
    return get_object_or_404(
        PendingToolBatch.objects.select_related("conversation__program"),
        pk=batch_id,
        conversation__in=athlete_conversations(request.user),
    )


def _revision(request: HttpRequest) -> int | None:
    form = DecisionForm(request.POST)
    return form.cleaned_data["revision"] if form.is_valid() else None


def _decided(
    request: HttpRequest, batch: PendingToolBatch, decision: proposals.Decision
) -> HttpResponse:
    """The card after a decision, the event and acknowledgment it added, the panel refreshed."""
    note = ""
    if decision.outcome in ("stale", "revision_mismatch"):
        note = STALE_NOTE
    elif decision.outcome in ("undo_refused", "already_decided") and decision.message:
        note = decision.message  # refused, or expired on the way (e.g. a new program)
    if not request.htmx:
        if note:
            flash.info(request, note)
        elif decision.outcome == "failed":
            flash.error(
                request, decision.batch.error_message or "The changes could not be applied."
            )
        return redirect(conversation_url(batch.conversation))
    if decision.outcome == "already_decided" and decision.event is None:
        # Decided elsewhere (another tab, a double click): reload to show the current state.
        return HttpResponseClientRefresh()
    conversation = batch.conversation
    # The decision may have changed the program: the panel's cache key reads both.
    conversation.program.refresh_from_db(fields=["version", "updated_at"])
    new_messages = [m for m in (decision.event, decision.followup) if m is not None]
    refreshed = list(
        Message.objects.filter(batch=batch, role=Message.Role.EVENT).exclude(
            pk__in=[m.pk for m in new_messages]
        )
    )
    context = {
        **regions(conversation, shown_version=request.POST.get("program_version")),
        "conversation": conversation,
        "decision": decision,
        "note": note,
        "new_messages": new_messages,
        "refreshed": refreshed,
        "undoable": undoable_events(conversation),
    }
    return render(request, f"{PAGE}#decided", context)


def _decide(request: HttpRequest, batch_id: int, decide: Callable[..., Any]) -> HttpResponse:
    batch = _own_batch(request, batch_id)
    revision = _revision(request)
    if revision is None:
        return HttpResponseBadRequest("The form must say which revision of the changes you saw.")
    try:
        decision = decide(batch_id=batch.pk, user=request.user, revision=revision)
    except PendingToolBatch.DoesNotExist as exc:
        raise Http404("No such changes.") from exc
    return _decided(request, batch, decision)


@login_required
@require_POST
def batch_apply(request: HttpRequest, batch_id: int) -> HttpResponse:
    return _decide(request, batch_id, proposals.apply)


@login_required
@require_POST
def batch_cancel(request: HttpRequest, batch_id: int) -> HttpResponse:
    return _decide(request, batch_id, proposals.cancel)


@login_required
@require_POST
def batch_undo(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _own_batch(request, batch_id)
    return _decided(request, batch, proposals.undo(batch_id=batch.pk, user=request.user))


@login_required
@require_POST
def call_remove(request: HttpRequest, batch_id: int, call_id: str) -> HttpResponse:
    batch = _own_batch(request, batch_id)
    revision = _revision(request)
    if revision is None:
        return HttpResponseBadRequest("The form must say which revision of the changes you saw.")
    decision = proposals.remove_call(
        batch_id=batch.pk, user=request.user, revision=revision, call_id=call_id
    )
    return _decided(request, batch, decision)


def _edit_context(
    batch: PendingToolBatch, item: dict[str, Any], values: dict[str, str], errors: dict[str, str]
) -> dict[str, Any]:
    """The edit form: each field with the athlete's value (or the proposed one) and its error.
    An error on a field the form doesn't show is listed below the fields."""
    fields = [
        {
            **field,
            "value": values.get(field["path"], field["value"]),
            "error": errors.get(field["path"], ""),
        }
        for field in item["fields"]
    ]
    shown = {field["path"] for field in fields}
    other = [message for path, message in errors.items() if path not in shown]
    return {"batch": batch, "item": item, "form_fields": fields, "other_errors": other}


@login_required
@require_http_methods(["GET", "POST"])
def call_edit(request: HttpRequest, batch_id: int, call_id: str) -> HttpResponse:
    """GET: the item's fields as a form, in place. POST: save them (re-validated, re-previewed)."""
    batch = _own_batch(request, batch_id)
    item = next((i for i in card_items(batch) if i["call_id"] == call_id), None)
    if item is None:
        raise Http404("That change is no longer in the batch.")
    if request.method == "GET":
        if not request.htmx:
            return redirect(conversation_url(batch.conversation))
        return render(request, f"{PAGE}#item-edit", _edit_context(batch, item, {}, {}))
    revision = _revision(request)
    if revision is None:
        return HttpResponseBadRequest("The form must say which revision of the changes you saw.")
    values = {
        key.removeprefix(FIELD_PREFIX): value
        for key, value in request.POST.items()
        if key.startswith(FIELD_PREFIX)
    }
    result = proposals.edit_call(
        batch_id=batch.pk, user=request.user, revision=revision, call_id=call_id, values=values
    )
    if result.outcome == "invalid":
        if not request.htmx:
            flash.error(request, " ".join(result.errors.values()))
            return redirect(conversation_url(batch.conversation))
        context = _edit_context(result.batch, item, values, result.errors)
        return render(request, f"{PAGE}#item-edit", context, status=422)
    decision = proposals.Decision(
        batch=result.batch,
        outcome="already_decided" if result.outcome == "already_decided" else "edited",
    )
    if result.outcome == "revision_mismatch":
        decision.outcome = "revision_mismatch"
    response = _decided(request, batch, decision)
    if request.htmx and response.status_code == 200:
        # The form swapped itself; a saved edit replaces the whole card instead.
        response = reswap(retarget(response, "#batch-card"), "outerHTML")
    return response
