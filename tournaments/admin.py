"""Read-only admin views of the tournament projections (structures and payouts are part of
each tournament's configuration, recorded in its events)."""

from django.contrib import admin

from casino.admin import ProjectionAdmin
from tournaments.models import EntryView, TournamentView


@admin.register(TournamentView)
class TournamentViewAdmin(ProjectionAdmin):
    list_display = ("tournament_id", "name", "status", "entries", "level", "created_at")
    list_filter = ("status",)


@admin.register(EntryView)
class EntryViewAdmin(ProjectionAdmin):
    list_display = ("tournament", "entry_number", "player_id", "status", "stack", "place")
