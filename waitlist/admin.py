"""Read-only admin views of the waiting-list projections."""

from django.contrib import admin

from casino.admin import ProjectionAdmin
from waitlist.models import WaitingList, WaitlistCall, WaitlistEntry


@admin.register(WaitingList)
class WaitingListAdmin(ProjectionAdmin):
    list_display = ("list_id", "list_kind", "game", "small_blind", "big_blind", "opened_at")


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(ProjectionAdmin):
    list_display = ("entry_id", "waiting_list", "player_id", "position", "misses", "away")
    exclude = ("phone",)  # personal data: not shown to every staff member


@admin.register(WaitlistCall)
class WaitlistCallAdmin(ProjectionAdmin):
    list_display = ("call_id", "waiting_list", "player_id", "table_id", "status", "deadline")
