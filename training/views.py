"""Training pages: fitness chart, activities, settings, file import, workout logging.

Views are thin: they find the athlete's own object (anyone else's is a 404), call a service or a
selector, and render. The import status is an htmx partial that polls until the job is done.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages as flash
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from access.login import login_required
from config import uploads
from programs import workout_log

from . import selectors, services
from .forms import CompleteForm, ProfileForm, SetLogForm
from .imports import import_job_create
from .models import Activity, ImportJob
from .tasks import send_import
from .units import activity_summary, clock, display_rows

FITNESS_DAYS = 90
PROJECTION_WEEKS = 12


@require_GET
@login_required
def fitness_page(request: HttpRequest) -> HttpResponse:
    profile = services.profile_for(athlete=request.user)
    today = services.athlete_today(profile=profile)
    planned = workout_log.planned_sessions(
        athlete=request.user, start=today, end=today + datetime.timedelta(weeks=PROJECTION_WEEKS)
    )
    until = max([p.date for p in planned], default=today)
    series = selectors.fitness_series(
        athlete=request.user,
        start=today - datetime.timedelta(days=FITNESS_DAYS),
        end=today,
        project_until=until,
    )
    chart = {
        "dates": [d.date.isoformat() for d in series],
        "load": [round(d.load, 1) for d in series],
        "ctl": [round(d.ctl, 1) for d in series],
        "atl": [round(d.atl, 1) for d in series],
        "tsb": [round(d.tsb, 1) for d in series],
        "projected": [d.projected for d in series],
    }
    return render(
        request,
        "training/fitness.html",
        {"chart": chart, "now": selectors.fitness_on(athlete=request.user), "today": today},
    )


@require_GET
@login_required
def activity_list(request: HttpRequest) -> HttpResponse:
    profile = services.profile_for(athlete=request.user)
    rows = Activity.objects.filter(athlete=request.user).select_related("session__week")
    page = Paginator(rows.order_by("-start", "-pk"), 30).get_page(request.GET.get("page"))
    return render(
        request,
        "training/activities.html",
        {"page": page, "rows": [activity_summary(a, profile) for a in page.object_list]},
    )


def _own_activity(request: HttpRequest, activity_id: int) -> Activity:
    try:
        return selectors.activity_of_athlete(athlete=request.user, activity_id=activity_id)
    except Activity.DoesNotExist as exc:
        raise Http404("No such activity.") from exc


@require_GET
@login_required
def activity_detail(request: HttpRequest, activity_id: int) -> HttpResponse:
    activity = _own_activity(request, activity_id)
    profile = services.profile_for(athlete=request.user)
    return render(
        request,
        "training/activity.html",
        {
            "activity": activity,
            "summary": activity_summary(activity, profile),
            "rows": display_rows(activity_summary(activity, profile)),
            "streams": activity.streams or {},
        },
    )


@require_POST
@login_required
def activity_delete(request: HttpRequest, activity_id: int) -> HttpResponse:
    services.activity_soft_delete(activity=_own_activity(request, activity_id))
    flash.success(request, "Activity deleted.")
    return redirect("training:activities")


@require_http_methods(["GET", "POST"])
@login_required
def profile_settings(request: HttpRequest) -> HttpResponse:
    profile = services.profile_for(athlete=request.user)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        flash.success(request, "Settings saved.")
        return redirect("training:settings")
    return render(request, "training/settings.html", {"form": form})


@require_http_methods(["GET", "POST"])
@login_required
def import_upload(request: HttpRequest) -> HttpResponse:
    error = ""
    if request.method == "POST":
        files = request.FILES.getlist("files")
        try:
            with transaction.atomic():
                job = import_job_create(
                    athlete=request.user,
                    files=[(f.name, f) for f in files],
                    refused=uploads.refused_files(request),
                )
        except ValueError as exc:
            error = str(exc)
        else:
            if not send_import(job.pk):
                flash.warning(
                    request,
                    "Your files are saved. The importer can't be reached just now; the import "
                    "starts by itself as soon as it is back.",
                )
            return redirect("training:import_job", job_id=job.pk)
    jobs = ImportJob.objects.filter(athlete=request.user)[:5]
    return render(
        request,
        "training/import.html",
        {
            "error": error,
            "jobs": jobs,
            "max_files": settings.IMPORT_MAX_FILES,
            "file_mb": settings.UPLOAD_FILE_MAX_MB,
            "upload_mb": settings.UPLOAD_MAX_MB,
        },
        status=422 if error else 200,
    )


@require_GET
@login_required
def import_status(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(ImportJob, pk=job_id, athlete=request.user)
    files = list(job.files.defer("data"))
    context = {"job": job, "files": files, "done": sum(f.done for f in files)}
    template = "training/import_job.html"
    return render(request, f"{template}#status" if request.htmx else template, context)


@require_GET
@login_required
def log_today(request: HttpRequest) -> HttpResponse:
    profile = services.profile_for(athlete=request.user)
    today = services.athlete_today(profile=profile)
    sessions = workout_log.sessions_on(athlete=request.user, date=today)
    if len(sessions) == 1:
        return redirect("training:log_session", session_id=sessions[0].pk)
    return render(request, "training/log_today.html", {"sessions": sessions, "today": today})


@require_http_methods(["GET", "POST"])
@login_required
def log_session(request: HttpRequest, session_id: int) -> HttpResponse:
    try:
        session = workout_log.session_of_athlete(athlete=request.user, session_id=session_id)
    except workout_log.Session.DoesNotExist as exc:
        raise Http404("No such session.") from exc
    profile = services.profile_for(athlete=request.user)
    today = services.athlete_today(profile=profile)
    exercises = [e for e in session.exercises.all() if not e.skipped]
    logged = {(s.exercise_id, s.set_number): s for e in exercises for s in e.sets.all()}
    # bound on POST: whatever was typed is shown again, a bad field marked beside it
    posted = request.POST if request.method == "POST" else None
    sets_form = SetLogForm(posted, exercises=exercises, logged=logged)
    form = CompleteForm(posted)
    error = ""
    if posted is not None and not all([sets_form.is_valid(), form.is_valid()]):
        error = "Some entries need a fix (marked below); nothing was saved yet."
    elif posted is not None:
        data = form.cleaned_data
        try:
            activity = services.workout_complete(
                athlete=request.user,
                session_id=session.pk,
                on=session.scheduled_date if session.scheduled_date == today else today,
                sets=sets_form.entries(),
                cardio=services.CardioEntry(
                    actual_duration=data["actual_duration"], avg_heart_rate=data["avg_heart_rate"]
                ),
                rating=data["rating"],
                rpe=data["rpe"],
                notes=data["notes"],
                duration_min=data["duration_min"],
            )
        except (workout_log.WorkoutLogError, ValidationError) as exc:
            error = str(exc)
        else:
            flash.success(
                request,
                f"{session.name} logged: load {activity.training_load:g} "
                f"({activity.get_load_method_display().lower()}).",
            )
            return redirect("training:activity", activity_id=activity.pk)
    cardio = getattr(session, "cardio", None)
    return render(
        request,
        "training/log_session.html",
        {
            "session": session,
            "rows": sets_form.rows(),
            "cardio": cardio,
            "form": form,
            "error": error,
            "planned": clock((cardio.duration if cardio else 0) * 60),
        },
        status=422 if error else 200,
    )
