"""Cash-game admin: configuration editable (stakes limits, rake schedule: not events),
read models read-only."""

from django.contrib import admin

from cashgame.models import (
    CageTransaction,
    CashSession,
    ChipMovement,
    Departure,
    RakeSchedule,
    SeatingRestriction,
    StakesLimits,
)
from casino.admin import ProjectionAdmin


@admin.register(StakesLimits)
class StakesLimitsAdmin(admin.ModelAdmin):
    """Buy-in limits per game and stakes (BI-3, BI-4), CZK."""

    list_display = ("game", "small_blind", "big_blind", "buy_in_min", "buy_in_max")
    list_filter = ("game",)


@admin.register(RakeSchedule)
class RakeScheduleAdmin(admin.ModelAdmin):
    """Rake steps per game (RAKE-1..4): basis points of each pot, cap in CZK per hand."""

    list_display = ("game", "from_small_blind", "percent_bp", "cap", "no_flop_no_drop")
    list_filter = ("game",)


@admin.register(CashSession)
class CashSessionAdmin(ProjectionAdmin):
    list_display = ("id", "player_id", "table_id", "seat", "seated_at", "left_at", "chips_in")


for model in (Departure, SeatingRestriction, ChipMovement, CageTransaction):
    admin.site.register(model, ProjectionAdmin)
