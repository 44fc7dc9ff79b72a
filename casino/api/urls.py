from django.urls import path

from casino.api import players

urlpatterns = [
    path("players/", players.CreatePlayerView.as_view(), name="player-create"),
]
