"""WebSocket routes."""

from django.urls import path

from tables.consumers import FloorConsumer, TableConsumer
from tournaments.consumers import TournamentClockConsumer, TournamentConsumer
from waitlist.consumers import WaitlistBoardConsumer, WaitlistFloorConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/floor/", FloorConsumer.as_asgi()),
    # --- waiting lists (issue #5) ---
    path("ws/waitlists/", WaitlistFloorConsumer.as_asgi()),
    path("ws/board/waitlists/", WaitlistBoardConsumer.as_asgi()),
    # --- tournaments (issue #6) ---
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/clock/", TournamentClockConsumer.as_asgi()),
]
