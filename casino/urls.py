"""URL map: REST API under /api/v1/, OpenAPI schema and Swagger UI, the staff consoles."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("api/v1/", include("casino.api.urls")),
    path("api/v1/", include("tables.urls")),
    path("api/v1/", include("cashgame.urls")),
    path("api/v1/", include("waitlist.urls")),  # waiting lists (issue #5)
    path("api/v1/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("", include("casino.console_urls")),  # consoles (issue #13): pages, not API
]
