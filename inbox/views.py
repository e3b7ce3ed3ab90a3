"""The coach's inbox pages in the admin (``/admin/inbox/``): the review inbox, the replies, an
athlete's thread with the message form. Each view is wrapped in ``admin.site.admin_view`` (signed
in, ``is_staff``, CSRF on every POST), authorises through ``reviews`` / ``threads`` (someone else's
athlete or batch is a 404, a staff reader's POST a 403) and calls one service.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from access import policy
from chat.services import MAX_MESSAGE_CHARS

from . import counts, reviews, threads


def in_admin(view: Callable) -> Callable:
    return admin.site.admin_view(view)


def _page(request: HttpRequest, template: str, title: str, **context) -> TemplateResponse:
    return TemplateResponse(
        request, template, {**admin.site.each_context(request), "title": title, **context}
    )


@require_GET
def review_list(request: HttpRequest) -> HttpResponse:
    waiting = reviews.waiting(request.user)
    return _page(
        request,
        "inbox/reviews.html",
        "Reviews waiting for you",
        reviews=waiting,
        deciding=any(r.may_decide for r in waiting),
        note_limit=reviews.NOTE_LIMIT,
    )


def _report(request: HttpRequest, outcome: reviews.Outcome) -> None:
    level = messages.SUCCESS if outcome.ok else messages.ERROR
    who = f"{outcome.athlete}: " if outcome.athlete else f"Review {outcome.batch_id}: "
    messages.add_message(request, level, who + outcome.text)


@require_POST
def review_decide(request: HttpRequest, batch_id: int) -> HttpResponse:
    try:
        outcome = reviews.decide(
            request.user,
            batch_id,
            action=request.POST.get("action", ""),
            note=request.POST.get("note", ""),
            edits=reviews.edits_from(request.POST),
        )
    except reviews.NotFound:
        raise Http404("No such review.") from None
    _report(request, outcome)
    return HttpResponseRedirect(reverse("inbox:reviews"))


@require_POST
def review_bulk(request: HttpRequest) -> HttpResponse:
    ids = request.POST.getlist("batch")
    action = request.POST.get("action", "")
    note = request.POST.get("note", "")
    back = HttpResponseRedirect(reverse("inbox:reviews"))
    if not ids:
        messages.error(request, "Tick the reviews to decide first; nothing was decided.")
        return back
    if len(ids) > reviews.BULK_LIMIT:
        messages.error(
            request, f"At most {reviews.BULK_LIMIT} reviews at once; nothing was decided."
        )
        return back
    problem = (
        "Edits are made one review at a time."
        if action == reviews.EDIT_APPROVE
        else reviews.check_note(action, note)
    )
    if problem:
        messages.error(request, f"{problem} Nothing was decided.")
        return back
    if not (_coaches(request) or policy.is_superuser(request.user)):
        raise PermissionDenied("Only a coach decides on reviews.")
    outcomes = reviews.decide_many(request.user, ids, action=action, note=note)
    done = sum(o.ok for o in outcomes)
    messages.info(request, f"{done} of {len(outcomes)} decided.")
    for outcome in outcomes:
        if not outcome.ok:
            _report(request, outcome)
    return back


@require_GET
def reply_list(request: HttpRequest) -> HttpResponse:
    action = policy.READ if policy.is_staff_reader(request.user) else policy.REVIEW
    return _page(
        request,
        "inbox/replies.html",
        "Messages from your athletes",
        rows=threads.reply_rows(request.user, action=action),
    )


def _coaches(request: HttpRequest) -> bool:
    return counts.coach_conversations(request.user).exists()


@require_http_methods(["GET", "POST"])
def compose(request: HttpRequest, athlete_id: int) -> HttpResponse:
    """An athlete's thread and, for their coach, the form to write to them."""
    try:
        athlete = threads.athlete_for(request.user, athlete_id, action=policy.REVIEW)
        writes = True
    except LookupError:
        try:
            athlete = threads.athlete_for(request.user, athlete_id, action=policy.READ)
        except LookupError:
            raise Http404("No such athlete.") from None
        writes = False
    here = reverse("inbox:compose", args=[athlete.pk])
    text = ""
    if request.method == "POST":
        if not writes:
            raise PermissionDenied("Only the athlete's coach writes to them.")
        text = request.POST.get("text", "")
        try:
            threads.send(request.user, athlete, text)
        except (ValidationError, PermissionDenied) as exc:
            problem = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            messages.error(request, f"{problem} Nothing was sent.")
        else:
            messages.success(request, "Sent: they see it in their chat as from you.")
            return HttpResponseRedirect(here)
    shown = threads.thread(request.user, athlete, action=policy.REVIEW if writes else policy.READ)
    if writes:
        threads.mark_thread_read(request.user, shown)
    return _page(
        request,
        "inbox/compose.html",
        f"Messages with {athlete.get_full_name() or athlete.get_username()}",
        athlete=athlete,
        thread=shown,
        writes=writes,
        text=text,
        limit=MAX_MESSAGE_CHARS,
    )
