"""The template's pages in the admin, mounted by ``ProgramTemplateAdmin.get_urls`` (and "Save as
template" by ``ProgramAdmin``'s), so Django's admin checks that the user is signed-in staff; each
view then asks the access policy: a template (or program) the user may not see is 404 (another
coach's), one they may not change is 403 (the read-only Staff group). Views are thin: authorise,
call the service, render.

* ``save_as_template`` (GET form, POST): a program's plan as a new template of the coach's;
* ``editor`` and its ``preview``/``apply`` POSTs: the one-page program editor on the template;
* ``assign`` (GET form, POST): the template to some of the coach's athletes, a start date each;
* ``propagation`` (GET), ``dry_run`` (POST, one athlete), ``propagate`` (POST): ``propagate_views``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.admin.models import ADDITION, LogEntry
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from access.policy import may_act, visible

from ..editor import service as editor_service
from ..editor import views as editor_views
from ..models import ProgramTemplate
from .assign import TemplateError, Wanted, assign, may_assign_to, save_as_template
from .trees import record_version

ASSIGN_TEMPLATE = "admin/programs/programtemplate/assign.html"
SAVE_TEMPLATE = "admin/programs/programtemplate/save_as.html"


def template_or_404(model_admin: Any, request: HttpRequest, object_id: Any) -> ProgramTemplate:
    """The template, when the user may see it (404 otherwise) and change it (403 otherwise)."""
    template = (
        visible(ProgramTemplate.objects.select_related("program"), request.user, lookup="program")
        .filter(pk=id_or_404(object_id))
        .first()
    )
    if template is None:
        raise Http404("No template with that id that you may see.")
    if not (
        model_admin.has_change_permission(request, template) and may_act(request.user, template)
    ):
        raise PermissionDenied
    return template


def id_or_404(raw: Any) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise Http404("Not an id.") from None


def context(model_admin: Any, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
    request.current_app = model_admin.admin_site.name
    return {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "subtitle": None,
        "opts": model_admin.opts,
        **extra,
    }


def urls(template: ProgramTemplate) -> dict[str, str]:
    info = "admin:programs_programtemplate"
    return {
        "change": reverse(f"{info}_change", args=[template.pk]),
        "editor": reverse(f"{info}_editor", args=[template.pk]),
        "assign": reverse(f"{info}_assign", args=[template.pk]),
        "propagation": reverse(f"{info}_propagation", args=[template.pk]),
    }


def used_by(template: ProgramTemplate) -> str:
    count = template.assignments.count()
    return f"{count} athlete{'' if count == 1 else 's'}"


# --- save a program as a template (ProgramAdmin's) ------------------------------------------------


@require_http_methods(["GET", "POST"])
def save_as(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    program = editor_views.program_to_change(model_admin, request, object_id)
    if not model_admin.admin_site.is_registered(ProgramTemplate) or not request.user.has_perm(
        "programs.add_programtemplate"
    ):
        raise PermissionDenied
    error = ""
    if request.method == "POST":
        try:
            template = save_as_template(
                program=program, coach=request.user, name=request.POST.get("name", "")
            )
        except TemplateError as refused:
            error = str(refused)
        else:
            LogEntry.objects.log_actions(
                user_id=request.user.pk,
                queryset=[template],
                action_flag=ADDITION,
                change_message=f"Saved from the program “{program.name}”.",
                single_object=True,
            )
            messages.success(request, f"Saved “{template.name}” as a template.")
            return HttpResponseRedirect(urls(template)["change"])
    response = TemplateResponse(
        request,
        SAVE_TEMPLATE,
        context(
            model_admin, request, f"Save {program.name} as a template", program=program, error=error
        ),
    )
    response.status_code = 400 if error else 200
    return response


# --- the template's editor --------------------------------------------------------------------------


def _editor_urls(template: ProgramTemplate) -> dict[str, str]:
    info = "admin:programs_programtemplate"
    return {
        "preview_url": reverse(f"{info}_editor_preview", args=[template.pk]),
        "apply_url": reverse(f"{info}_editor_apply", args=[template.pk]),
        "history_url": reverse("admin:programs_program_history", args=[template.program_id]),
    }


def _next_step(template: ProgramTemplate) -> dict[str, str]:
    return {
        "template": template,
        "template_used_by": used_by(template),
        "propose_url": urls(template)["propagation"] if template.assignments.exists() else "",
    }


@require_GET
def editor(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)
    return editor_views.editor_page(
        request,
        model_admin,
        template.program,
        obj=template,
        urls=_editor_urls(template),
        extra=_next_step(template),
    )


def _step(step: Any, request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)

    def after(result: editor_service.EditorResult) -> dict[str, Any]:
        if result.applied:
            record_version(template)  # the version the athletes' proposals start from
        return _next_step(template)

    return editor_views.run(step, request, template.program, after)


@require_POST
def editor_preview(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    return _step(editor_service.preview, request, model_admin, object_id)


@require_POST
def editor_apply(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    return _step(editor_service.apply, request, model_admin, object_id)


# --- assign ------------------------------------------------------------------------------------------


def next_monday(today: datetime.date) -> datetime.date:
    return today + datetime.timedelta(days=7 - today.weekday())


def _wanted(request: HttpRequest) -> tuple[list[Wanted], list[str]]:
    wanted, problems = [], []
    for raw in request.POST.getlist("athlete")[:1000]:
        athlete_id = id_or_404(raw)
        text = request.POST.get(f"start-{athlete_id}", "").strip()
        try:
            start = datetime.date.fromisoformat(text)
        except ValueError:
            problems.append(f"Give a start date like 2026-11-30 for each athlete (got {text!r}).")
            continue
        wanted.append(Wanted(athlete_id, start))
    return wanted, problems


@require_http_methods(["GET", "POST"])
def assign_view(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)
    problems: list[str] = []
    if request.method == "POST":
        wanted, problems = _wanted(request)
        if not problems:
            try:
                made = assign(template=template, coach=request.user, wanted=wanted)
            except TemplateError as refused:
                problems = [str(refused)]
            else:
                for assignment in made:
                    LogEntry.objects.log_actions(
                        user_id=request.user.pk,
                        queryset=[assignment.program],
                        action_flag=ADDITION,
                        change_message=f"Made from the template “{template.name}”.",
                        single_object=True,
                    )
                names = ", ".join(a.program.athlete.username for a in made)
                messages.success(request, f"Assigned “{template.name}” to {names}.")
                return HttpResponseRedirect(urls(template)["change"])
    athletes = list(may_assign_to(request.user)[:500])
    response = TemplateResponse(
        request,
        ASSIGN_TEMPLATE,
        context(
            model_admin,
            request,
            f"Assign {template.name}",
            template=template,
            urls=urls(template),
            athletes=athletes,
            default_start=next_monday(timezone.localdate()),
            problems=problems,
        ),
    )
    response.status_code = 400 if problems else 200
    return response
