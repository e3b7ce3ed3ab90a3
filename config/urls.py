from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_GET

from config import params  # noqa: F401  (registers <id:...>, used by the apps' URLs below)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for a load balancer or orchestrator, and the baseline view of ``bench_http``."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", include("inbox.urls")),  # its coach's pages under admin/inbox/, before the admin's
    path("admin/roster/", include("roster.urls")),  # the coach's workspace, inside the admin
    path("admin/calendar/", include("training.coach_urls")),  # the coach's calendar of an athlete
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("training/", include("training.urls")),
    path("wellness/", include("wellness.urls")),
    path("", include("library.urls")),
    path("", include("nutrition.urls")),
    path("", include("media.urls")),
    path("", include("chat.urls")),
]
