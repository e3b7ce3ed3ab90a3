"""The page that proposes a template's edit to the athletes using it, and its two POSTs.

* ``propagation`` (GET): every athlete behind the template's newest version, each with what the
  merge takes, what is kept (done) and the conflicts with their own edits, in words, a choice to
  overwrite each conflict and a choice to apply to them; in a constant number of queries however
  many athletes and weeks (``propagate.proposals``). Each athlete's engine dry run is loaded by
  the page from ``dry_run``, one request per athlete.
* ``dry_run`` (POST): one athlete's dry run with the coach's overwrite choices (nothing written).
* ``propagate`` (POST): apply to the athletes chosen, one change set each.

Ids in a POST must be assignments of this template not yet in step; anything else is a 404 and
nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..models import TemplateAssignment
from . import propagate as service
from .merge import name_of
from .trees import record_version
from .views import context, id_or_404, template_or_404, urls

PAGE = "admin/programs/programtemplate/propagation.html"
DRY_RUN = "admin/programs/programtemplate/_dry_run.html"
MAX_CHOICES = 200  # conflicts named in one POST per athlete
PER_PAGE = 50  # athletes proposed on one page


@require_GET
def propagation(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)
    latest = record_version(template)
    page = Paginator(service.behind(template, latest), PER_PAGE).get_page(request.GET.get("page"))
    assignments = list(page.object_list)
    cards = [
        {
            "proposal": proposal,
            "calls": len(translation.calls),
            "problems": [p.message for p in translation.problems],
            "dry_run_url": reverse(
                "admin:programs_programtemplate_dry_run", args=[template.pk, proposal.assignment.pk]
            ),
        }
        for proposal, translation in service.proposals(template, assignments, latest)
    ]
    in_step = template.assignments.filter(version=latest).count()
    return TemplateResponse(
        request,
        PAGE,
        context(
            model_admin,
            request,
            f"Propose “{template.name}” version {latest.number} to athletes",
            template=template,
            latest=latest,
            cards=cards,
            in_step=in_step,
            page=page,
            urls=urls(template),
            apply_url=reverse("admin:programs_programtemplate_propagate", args=[template.pk]),
        ),
    )


def _overwrite(request: HttpRequest, assignment_id: int) -> set[str]:
    return {v[:100] for v in request.POST.getlist(f"overwrite-{assignment_id}")[:MAX_CHOICES]}


@require_POST
def dry_run(
    request: HttpRequest, model_admin: Any, object_id: str, assignment_id: int
) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)
    assignment = get_object_or_404(
        TemplateAssignment.objects.select_related("program__athlete", "version"),
        pk=assignment_id,
        template=template,
    )
    outcome = service.preview(
        template=template,
        assignment=assignment,
        coach=request.user,
        overwrite=_overwrite(request, assignment.pk),
    )
    html = render_to_string(DRY_RUN, {"outcome": outcome}, request=request)
    return HttpResponse(html)


@require_POST
def propagate(request: HttpRequest, model_admin: Any, object_id: str) -> HttpResponse:
    template = template_or_404(model_admin, request, object_id)
    page = urls(template)["propagation"]
    chosen_ids = {id_or_404(raw) for raw in request.POST.getlist("apply")[:1000]}
    if not chosen_ids:
        messages.error(request, "Choose at least one athlete to apply the change to.")
        return HttpResponseRedirect(page)
    mine = set(
        TemplateAssignment.objects.filter(template=template, pk__in=chosen_ids).values_list(
            "pk", flat=True
        )
    )
    if mine != chosen_ids:
        raise Http404("An athlete chosen doesn't use this template.")
    chosen = {
        pk: (id_or_404(request.POST.get(f"seen-{pk}")), _overwrite(request, pk))
        for pk in chosen_ids
    }
    outcomes, refused = service.apply(
        template=template,
        coach=request.user,
        version_number=id_or_404(request.POST.get("version")),
        chosen=chosen,
    )
    if refused:
        messages.error(request, refused)
    for outcome in outcomes:
        name = name_of(outcome.proposal.assignment.program.athlete)
        if outcome.applied:
            kept = sum(not c.overwritten for c in outcome.proposal.conflicts)
            words = (
                f"{outcome.calls} change{'' if outcome.calls == 1 else 's'}"
                if outcome.calls
                else "nothing to change"
            )
            extra = (
                f"; kept their own value in {kept} conflict{'' if kept == 1 else 's'}"
                if kept
                else ""
            )
            messages.success(request, f"{name}: applied ({words}{extra}).")
            if outcome.calls:
                LogEntry.objects.log_actions(
                    user_id=request.user.pk,
                    queryset=[outcome.proposal.assignment.program],
                    action_flag=CHANGE,
                    change_message=f"Template “{template.name}”: {outcome.summary}".strip(),
                    single_object=True,
                )
        elif outcome.stale:
            messages.error(
                request,
                f"{name}: not applied, their program changed since this page was opened; "
                "here is their change as it is now.",
            )
        else:
            messages.error(request, f"{name}: not applied: {' '.join(outcome.problems)}")
    return HttpResponseRedirect(page)
