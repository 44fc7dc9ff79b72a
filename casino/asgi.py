"""ASGI entry point: HTTP through Django, WebSockets through Channels, and the lifespan.

HTTP runs the whole middleware chain and the (synchronous) DRF view in ONE worker thread
per request (:class:`OneHopASGIHandler`). Django's stock ASGI handler, given synchronous
middleware, hands each request between the event loop and a thread once per middleware
hook (about 16 thread hand-offs for our chain), which cost more CPU than the request's own
work. WebSockets stay fully asynchronous. Reasoning: ``docs/realtime.md``, "Hot path".
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup(set_prefix=False)

from casino.security import require_secret_key  # noqa: E402

require_secret_key()  # no serving without DEBUG on the built-in SECRET_KEY

from asgiref.sync import sync_to_async  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.http import HttpRequest, HttpResponseBase  # noqa: E402

from casino.lifespan import lifespan  # noqa: E402
from casino.metrics import OpenSocketsMiddleware  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with a synchronous middleware chain run in one thread hop.

    The request still runs in the request's thread-sensitive context (one thread per
    request), so the database connection it uses is the one closed when it finishes.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


django_asgi_app = OneHopASGIHandler()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OpenSocketsMiddleware(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        "lifespan": lifespan,
    }
)
