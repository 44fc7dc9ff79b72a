"""WebSocket routes of the tournaments (issue #6), collected by :mod:`casino.routing`."""

from django.urls import path

from tournaments.consumers import TournamentClockConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/clock/", TournamentClockConsumer.as_asgi()),
]
