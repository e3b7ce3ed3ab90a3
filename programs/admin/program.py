"""The program's admin page, with its History: a view of the journal, the change sets that
touched the program newest first, each shown by its program revision (who, when, how, summary,
the readable diff), a Restore button on each and an Undo button on those not undone yet, for the
users who may edit the program. Undo is the journal's one undo of that change set (the chat's
Undo calls the same); Restore is a new change set. Staff read the history and change nothing."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from access.policy import athletes_of, is_superuser, may_act
from journal import services as journal

from .. import services
from ..editor import views as editor_views
from ..history import HistoryError, change_set_of, describe, revision_lines, revision_restore
from ..models import Program, ProgramRevision
from ..plan_templates import views as template_views
from .formsets import adopt, update_changed
from .inlines import WeekInline
from .mixins import OwnedAdminMixin, start_recording

REVISIONS_PER_PAGE = 25


class PlansChangeList(ChangeList):
    """The programs list shows athletes' plans: a template's program is listed with templates
    (its own pages, history included, stay reachable by id)."""

    def get_queryset(self, request, exclude_parameters=None):
        return super().get_queryset(request, exclude_parameters).filter(as_template__isnull=True)


@admin.register(Program)
class ProgramAdmin(OwnedAdminMixin, admin.ModelAdmin):
    list_display = ("name", "athlete", "coach", "start_date", "version", "week_count")
    list_filter = (("coach", admin.RelatedOnlyFieldListFilter), "start_date")
    search_fields = ("name", "athlete__username")
    list_select_related = ("athlete", "coach")
    fields = ("name", "athlete", "coach", "start_date", "version", "created_at", "updated_at")
    readonly_fields = ("version", "created_at", "updated_at")
    inlines = (WeekInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(week_count=Count("weeks"))

    def get_changelist(self, request, **kwargs):
        return PlansChangeList

    @admin.display(description="Weeks", ordering="week_count")
    def week_count(self, obj: Program) -> int:
        return obj.week_count

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        users = get_user_model().objects.order_by("username")
        if db_field.name == "athlete":
            if not is_superuser(request.user):
                # A coach's roster: the athletes they coach (access.policy).
                users = users.filter(pk__in=athletes_of(request.user))
            kwargs["queryset"] = users
        elif db_field.name == "coach":
            if request.user.is_superuser:
                kwargs["queryset"] = users.filter(is_staff=True)
            else:
                kwargs["queryset"] = users.filter(pk=request.user.pk)
                kwargs["required"] = True
                kwargs["empty_label"] = None
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        initial.setdefault("coach", request.user.pk)
        return initial

    def save_model(self, request, obj, form, change):
        if not request.user.is_superuser:
            obj.coach = request.user
        if not change:
            saved = services.program_create(
                athlete=obj.athlete, name=obj.name, start_date=obj.start_date, coach=obj.coach
            )
            adopt(obj, saved)
            start_recording(request, obj)  # the weeks added with it are the first revision
            return
        recording = start_recording(request, obj)
        changed = list(form.changed_data)
        if obj.coach_id != recording.before["program"][obj.pk]["coach_id"]:
            changed.append("coach")
        update_changed(obj, changed)

    # --- history ---------------------------------------------------------------------------------

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name

        def bound(view):
            return self.admin_site.admin_view(
                lambda request, object_id: view(request, self, object_id)
            )

        return [
            path(
                "<path:object_id>/editor/",
                bound(editor_views.editor),
                name="{}_{}_editor".format(*info),
            ),
            path(
                "<path:object_id>/editor/preview/",
                bound(editor_views.preview),
                name="{}_{}_editor_preview".format(*info),
            ),
            path(
                "<path:object_id>/editor/apply/",
                bound(editor_views.apply),
                name="{}_{}_editor_apply".format(*info),
            ),
            path(
                "<path:object_id>/save-as-template/",
                bound(template_views.save_as),
                name="{}_{}_save_as_template".format(*info),
            ),
            path(
                "<path:object_id>/history/<int:revision_id>/<str:action>/",
                self.admin_site.admin_view(self.revision_action_view),
                name="{}_{}_revision_action".format(*info),
            ),
            *super().get_urls(),
        ]

    def history_view(self, request: HttpRequest, object_id: str, extra_context=None):
        program = self._get_visible_or_404(request, object_id)
        if not self.has_view_or_change_permission(request, program):
            raise PermissionDenied
        mine = ProgramRevision.objects.filter(program=program).values("pk")
        change_sets = journal.holding(ProgramRevision, mine).order_by("-pk")
        page = Paginator(change_sets, REVISIONS_PER_PAGE).get_page(request.GET.get("page"))
        held = journal.part_ids(list(page.object_list), ProgramRevision)
        revisions = (
            ProgramRevision.objects.filter(
                program=program, pk__in=[i for v in held.values() for i in v]
            )
            .select_related("actor", "undoes", "undone_by")
            .in_bulk()
        )
        may_edit = self.has_change_permission(request, program)
        rows = [
            {
                "change_set": change_set,
                "revision": revision,
                "lines": revision_lines(revision),
                "undone_by": getattr(revision, "undone_by", None),
                "may_undo": may_edit
                and change_set.undone_at is None
                and getattr(revision, "undone_by", None) is None,
            }
            for change_set in page.object_list
            for revision in [revisions[pk] for pk in held.get(change_set.pk, []) if pk in revisions]
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": f"History: {program.name}",
            "subtitle": None,
            "opts": self.opts,
            "object": program,
            "page": page,
            "rows": rows,
            "may_edit": may_edit,
            **(extra_context or {}),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/programs/program/revision_history.html", context)

    def revision_action_view(
        self, request: HttpRequest, object_id: str, revision_id: int, action: str
    ) -> HttpResponse:
        if action not in ("undo", "restore"):
            raise Http404(f"No history action {action!r}.")
        return require_POST(self._revision_action)(request, object_id, revision_id, action)

    def _revision_action(self, request, object_id, revision_id, action) -> HttpResponse:
        program = self._get_visible_or_404(request, object_id)
        revision = get_object_or_404(ProgramRevision, pk=revision_id, program=program)
        if not (self.has_change_permission(request, program) and may_act(request.user, program)):
            raise PermissionDenied
        try:
            if action == "undo":
                change_set = change_set_of(revision)
                if change_set is None:
                    raise HistoryError(f"Change #{revision.number} can't be undone.")
                journal.undo(change_set, request.user)
                done = ProgramRevision.objects.get(undoes=revision)
                messages.success(request, f"Undid change #{revision.number} as {describe(done)}.")
            else:
                done = revision_restore(revision=revision, actor=request.user)
                messages.success(
                    request,
                    f"Restored the program as it was after change #{revision.number}, "
                    f"as {describe(done)}.",
                )
        except (HistoryError, journal.JournalError) as refused:
            messages.error(request, str(refused))
        url = reverse(
            f"admin:{self.opts.app_label}_{self.opts.model_name}_history",
            args=[program.pk],
            current_app=self.admin_site.name,
        )
        return HttpResponseRedirect(url)
