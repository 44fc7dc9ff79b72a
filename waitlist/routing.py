"""WebSocket routes of the waiting lists (issue #5), collected by :mod:`casino.routing`."""

from django.urls import path

from waitlist.consumers import WaitlistBoardConsumer, WaitlistFloorConsumer

websocket_urlpatterns = [
    path("ws/waitlists/", WaitlistFloorConsumer.as_asgi()),
    path("ws/board/waitlists/", WaitlistBoardConsumer.as_asgi()),
]
