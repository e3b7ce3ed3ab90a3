"""The photo pages: send a photo to be read (the chat's and the recipes page's photo button) and
follow its reading. Views are thin: the sender only (``media.access.owned_reads``: anyone else's
read is a 404), a service call, a partial for htmx or the page without it.

A photo is read from the upload's first ``MEDIA_PHOTO_MAX_MB`` megabytes plus one byte (so a
bigger one is refused by its size, not read whole into memory); Django's upload handlers already
stop anything past ``UPLOAD_FILE_MAX_MB`` (``config/uploads.py``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required

from . import images, services, tasks
from .access import owned_reads
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


def _shown(request: HttpRequest, read, *, error: str = "", status: int = 200) -> HttpResponse:
    context = {
        "read": read,
        "error": error,
        "lines": _lines(read),
        "call": services.recipe_call(read) if read else None,
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
    try:
        read = services.photo_submit(owner=request.user, data=data)
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
    read = owned_reads(request.user).filter(pk=read_id).first()
    if read is None:
        raise Http404("No such photo.")
    return _shown(request, read)
