"""The editor's three views, reached through ``ProgramAdmin.get_urls`` (so Django's admin checks
that the user is signed in staff) and each authorised here: the program must be one the user may
see in the admin (another coach's answers 404, as every admin page does) and change (the Staff
group, which reads everything, gets 403). Views are thin: authorise, call the service, render.

* ``editor`` (GET): the whole program on one page;
* ``preview`` (POST, JSON body): the dry run, as HTML for the preview pane plus the problems by row;
* ``apply`` (POST, JSON body): the save, with the Undo of the change it wrote.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from access.policy import may_act

from ..history import revision_is_undone
from ..models import Program, ProgramRevision
from . import render, service
from .tree import TreeError, program_tree

TEMPLATE = "admin/programs/program/editor.html"
PREVIEW_TEMPLATE = "admin/programs/program/_editor_result.html"


def program_to_change(model_admin: Any, request: HttpRequest, object_id: str) -> Program:
    program = model_admin._get_visible_or_404(request, object_id)
    if not (model_admin.has_change_permission(request, program) and may_act(request.user, program)):
        raise PermissionDenied
    return program


def _last_save(program: Program) -> dict[str, Any] | None:
    """The program's newest change when it is an editor save not undone yet: the page offers its
    Undo (the journal's, through the History page's action), after a reload too."""
    latest = ProgramRevision.objects.filter(program=program).order_by("-number").first()
    if latest is None or latest.source != service.SOURCE or revision_is_undone(latest):
        return None
    url = reverse("admin:programs_program_revision_action", args=[program.pk, latest.pk, "undo"])
    return {"revision": latest, "undo_url": url}


@require_GET
def editor(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    program = program_to_change(model_admin, request, object_id)
    urls = {
        "preview_url": reverse("admin:programs_program_editor_preview", args=[program.pk]),
        "apply_url": reverse("admin:programs_program_editor_apply", args=[program.pk]),
        "history_url": reverse("admin:programs_program_history", args=[program.pk]),
    }
    return editor_page(request, model_admin, program, obj=program, urls=urls)


def editor_page(
    request: HttpRequest,
    model_admin: Any,
    program: Program,
    *,
    obj: Any,
    urls: dict[str, str],
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    """The editor of ``program``, shown as a page of ``model_admin`` about ``obj`` (the program
    itself, or the template holding it), posting to ``urls``."""
    context = {
        **model_admin.admin_site.each_context(request),
        # the page's own width for the sessions, as the roster does: no app sidebar beside it
        "is_nav_sidebar_enabled": False,
        "title": f"Edit {obj.name}",
        "subtitle": None,
        "opts": model_admin.opts,
        "object": obj,
        "program": program,
        "weeks_html": render.weeks_html(program_tree(program)),
        "last_save": _last_save(program),
        "blank_week": render.week_html(None),
        "blank_session": render.session_html(None),
        "blank_exercise": render.exercise_html(None),
        **urls,
        **(extra or {}),
    }
    request.current_app = model_admin.admin_site.name
    return TemplateResponse(request, TEMPLATE, context)


def _body(request: HttpRequest) -> Any:
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise TreeError("The page sent something that is not the program.") from exc


def _answer(
    request: HttpRequest,
    program: Program,
    result: service.EditorResult,
    extra: dict[str, Any] | None = None,
) -> JsonResponse:
    undo_url = ""
    if result.revision is not None:
        undo_url = reverse(
            "admin:programs_program_revision_action",
            args=[program.pk, result.revision.pk, "undo"],
        )
    html = render_to_string(
        PREVIEW_TEMPLATE,
        {"result": result, "program": program, "undo_url": undo_url, **(extra or {})},
        request=request,
    )
    return JsonResponse(
        {
            "ok": result.ok,
            "applied": result.applied,
            "stale": result.stale,
            "version": result.version,
            "problems": [p.to_dict() for p in result.problems],
            "html": html,
        }
    )


def _run(step: Any, model_admin: Any, request: HttpRequest, object_id: str) -> HttpResponse:
    return run(step, request, program_to_change(model_admin, request, object_id))


def run(step: Any, request: HttpRequest, program: Program, after: Any = None) -> HttpResponse:
    """Preview or apply (``step``) the posted tree on ``program``, the user already authorised;
    ``after(result)`` gives more context for the answer (the template's next step)."""
    try:
        result = step(program=program, user=request.user, data=_body(request))
    except TreeError as refused:
        result = service.EditorResult(message=str(refused), version=program.version)
        response = _answer(request, program, result)
        response.status_code = 400
        return response
    if result.applied:
        LogEntry.objects.log_actions(
            user_id=request.user.pk,
            queryset=[program],
            action_flag=CHANGE,
            change_message=f"Program editor: {result.message} {result.summary}".strip(),
            single_object=True,
        )
    return _answer(request, program, result, after(result) if after else None)


@require_POST
def preview(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    return _run(service.preview, model_admin, request, object_id)


@require_POST
def apply(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    return _run(service.apply, model_admin, request, object_id)
