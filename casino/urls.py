"""URL map: REST API under /api/v1/, OpenAPI schema and Swagger UI, the staff consoles.

Any other path answers a JSON 404 (static files are served before routing), and Django's
error handlers answer JSON too (casino.api.fallback): no HTML error or debug page."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView
from health_check.views import HealthCheckView

from casino.api import fallback
from casino.api.openapi import CachedSchemaView
from casino.health import readiness_checks
from casino.metrics import metrics_view

urlpatterns = [
    path("api/v1/", include("casino.api.urls")),
    path("api/v1/", include("tables.urls")),
    path("api/v1/", include("cashgame.urls")),
    path("api/v1/", include("waitlist.urls")),  # waiting lists (issue #5)
    path("api/v1/", include("tournaments.urls")),
    path("api/schema/", CachedSchemaView.as_view(), name="schema"),  # built once per process
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    # liveness: the process answers; readiness: database, migrations, Redis, broker, relay
    path("admin/", admin.site.urls),  # staff: players, devices, configuration; read-only log
    path("metrics", metrics_view, name="metrics"),  # Prometheus: token or staff only
    path("health/live/", HealthCheckView.as_view(checks=[]), name="health-live"),
    path("health/ready/", HealthCheckView.as_view(checks=readiness_checks()), name="health-ready"),
    path("", include("casino.console_urls")),  # consoles (issue #13): pages, not API
    re_path(r"", fallback.api_not_found),  # last: every unknown path, JSON even with DEBUG
]

handler400 = "casino.api.fallback.bad_request"
handler403 = "casino.api.fallback.permission_denied"
handler404 = "casino.api.fallback.not_found"
handler500 = "casino.api.fallback.server_error"
