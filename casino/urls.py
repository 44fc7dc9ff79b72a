"""URL map: REST API under /api/v1/, OpenAPI schema and Swagger UI, the staff consoles.

Any other path answers a JSON 404 (static files are served before routing), and Django's
error handlers answer JSON too (casino.api.fallback): no HTML error or debug page."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino.api import fallback

urlpatterns = [
    path("api/v1/", include("casino.api.urls")),
    path("api/v1/", include("tables.urls")),
    path("api/v1/", include("cashgame.urls")),
    path("api/v1/", include("waitlist.urls")),  # waiting lists (issue #5)
    path("api/v1/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("", include("casino.console_urls")),  # consoles (issue #13): pages, not API
    re_path(r"", fallback.api_not_found),  # last: every unknown path, JSON even with DEBUG
]

handler400 = "casino.api.fallback.bad_request"
handler403 = "casino.api.fallback.permission_denied"
handler404 = "casino.api.fallback.not_found"
handler500 = "casino.api.fallback.server_error"
