"""Read-only admin views of the table projections (written by tables.projections only)."""

from django.contrib import admin

from casino.admin import ProjectionAdmin
from tables.models import HandView, SeatView, TableView


@admin.register(TableView)
class TableViewAdmin(ProjectionAdmin):
    list_display = ("table_id", "name", "game", "small_blind", "big_blind", "status", "mode")
    list_filter = ("status", "game", "mode")


@admin.register(SeatView)
class SeatViewAdmin(ProjectionAdmin):
    list_display = ("table", "seat", "player_id", "stack")


@admin.register(HandView)
class HandViewAdmin(ProjectionAdmin):
    list_display = ("hand_id", "table", "hand_number", "status", "pot", "rake", "started_at")
    list_filter = ("status",)
