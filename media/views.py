"""The photo pages: send a photo to be read (the chat's and the recipes page's photo button),
follow its reading, check its recipe on the card and apply it (``media.card``), and fetch a photo
kept with a recipe. Views are thin: the sender only (``media.access``: anyone else's read or photo
is a 404), a service call, a partial for htmx or the page without it.

A photo is read from the upload's first ``MEDIA_PHOTO_MAX_MB`` megabytes plus one byte (so a
bigger one is refused by its size, not read whole into memory); Django's upload handlers already
stop anything past ``UPLOAD_FILE_MAX_MB`` (``config/uploads.py``).
"""

from __future__ import annotations

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required
from nutrition.services import line_reader

from . import card as cards
from . import images, services, tasks
from .access import owned_photos, owned_reads
from .models import PhotoRead
from .recipe_text import Reading


def _lines(read) -> list[dict[str, str]]:
    """Each ingredient as read ("0.5 cup rolled oats, toasted") beside the line as printed."""
    if read is None or read.status != read.Status.DONE:
        return []
    lines = []
    for r in Reading.from_json(read.reading).ingredients:
        shown = f"{r.quantity.normalize():f} {r.unit} {r.ingredient}"
        lines.append(
            {"shown": f"{shown}, {r.prep_state}" if r.prep_state else shown, "printed": r.text}
        )
    return lines


def _shown(
    request: HttpRequest, read, *, error: str = "", status: int = 200, card=None, problem=""
) -> HttpResponse:
    card = card or (cards.from_read(read) if read else None)
    context = {
        "read": read,
        "error": error,
        "problem": problem,
        "lines": _lines(read),
        "card": card,
        "preview": cards.preview(read, card).preview if card and not card.problems else None,
    }
    template = "media/_read.html" if request.htmx else "media/read.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def photo_send(request: HttpRequest) -> HttpResponse:
    upload = request.FILES.get("photo")
    if upload is None:
        return _shown(request, None, error="Choose a photo of the recipe first.", status=422)
    data = upload.read(images.max_bytes() + 1)
    keep = request.POST.get("keep") == "on"
    try:
        read = services.photo_submit(owner=request.user, data=data, keep=keep)
    except services.MediaError as exc:
        status = 429 if exc.code == "RATE_LIMITED" else 422
        return _shown(request, None, error=exc.message, status=status)
    tasks.queue_read(read)
    if not request.htmx:
        return redirect("media:photo", read_id=read.pk)
    return _shown(request, read)


@login_required
@require_GET
def photo(request: HttpRequest, read_id: int) -> HttpResponse:
    services.settle_stale(request.user)
    return _shown(request, _own_read(request, read_id))


def _own_read(request: HttpRequest, read_id: int) -> PhotoRead:
    read = owned_reads(request.user).filter(pk=read_id).first()
    if read is None:
        raise Http404("No such photo.")
    return read


@login_required
@require_POST
def photo_apply(request: HttpRequest, read_id: int) -> HttpResponse:
    """Save the card (as the athlete corrected it) as a recipe, keeping the photo if asked."""
    services.settle_stale(request.user)
    read = _own_read(request, read_id)
    if read.status != PhotoRead.Status.DONE:
        raise Http404("That photo has no recipe to save.")
    card = cards.from_post(request.POST, line_reader())
    applied = cards.apply(read, card)
    if applied.recipe_id is None:
        card.problems = applied.problems
        return _shown(request, read, card=card, status=422)
    for problem in applied.problems:  # saved, but the photo not kept: said on the recipe's page
        flash.warning(request, problem)
    response = redirect("nutrition:recipe", recipe_id=applied.recipe_id)
    if request.htmx:  # htmx follows a redirect inside the target: go to the page instead
        response = HttpResponse(status=204, headers={"HX-Redirect": response.url})
    return response


@login_required
@require_GET
def recipe_photo(request: HttpRequest, recipe_id: int) -> HttpResponse:
    """The photo kept with recipe ``recipe_id``: its owner's alone (anyone else: 404)."""
    kept = owned_photos(request.user).filter(recipe_id=recipe_id).first()
    if kept is None:
        raise Http404("No photo kept with that recipe.")
    response = HttpResponse(bytes(kept.image), content_type="image/jpeg")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_POST
def photo_undo(request: HttpRequest, read_id: int) -> HttpResponse:
    """Take back the recipe this photo's Apply made (and the photo kept with it)."""
    read = _own_read(request, read_id)
    problem = cards.undo(read)
    read.refresh_from_db()
    return _shown(request, read, problem=problem, status=422 if problem else 200)
