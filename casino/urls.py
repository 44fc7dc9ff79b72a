"""URL map: REST API under /api/v1/, OpenAPI schema and Swagger UI."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from health_check.views import HealthCheckView

from casino.health import readiness_checks
from casino.metrics import metrics_view

urlpatterns = [
    path("api/v1/", include("casino.api.urls")),
    path("api/v1/", include("tables.urls")),
    path("api/v1/", include("cashgame.urls")),
    path("api/v1/", include("waitlist.urls")),  # waiting lists (issue #5)
    path("api/v1/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    # liveness: the process answers; readiness: database, migrations, Redis, broker, relay
    path("admin/", admin.site.urls),  # staff: players, devices, configuration; read-only log
    path("metrics", metrics_view, name="metrics"),  # Prometheus: token or staff only
    path("health/live/", HealthCheckView.as_view(checks=[]), name="health-live"),
    path("health/ready/", HealthCheckView.as_view(checks=readiness_checks()), name="health-ready"),
]
