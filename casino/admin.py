"""Django admin at ``/admin/`` for staff: players, devices, staff roles, and read-only views.

What the admin may change is reference data that is not an event: players, devices, staff
roles and the configuration models the apps register as editable (stakes limits, rake
schedule). Projections and the event log are shown read-only (:class:`ProjectionAdmin`):
a fact of play is only ever recorded by a service appending an event, never by a form.
Each app registers its own models in its ``admin.py``.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from casino.eventstore.models import CommandRecord, StoredEvent, SubscriptionCursor
from casino.models import Device, Player, StaffProfile

admin.site.site_header = "Casino poker room"
admin.site.site_title = "Casino admin"


class ProjectionAdmin(admin.ModelAdmin):
    """Read-only: a read model (projection) or the log; written only by the services."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "nickname", "created_at")
    search_fields = ("name", "nickname")


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    """Devices: register, bind to a table, revoke. The token is shown once it exists and
    cannot be typed in (a new device gets a random one)."""

    list_display = ("id", "name", "role", "table_id", "revoked", "created_at")
    list_filter = ("role", "revoked")
    search_fields = ("name",)
    readonly_fields = ("token", "created_at", "registered_by", "revoked_at", "revoked_by")

    def save_model(self, request: HttpRequest, obj: Device, form: Any, change: bool) -> None:
        from django.utils import timezone

        from casino.auth import forget_device

        if not change:
            obj.registered_by = request.user  # type: ignore[assignment]
        if obj.revoked and obj.revoked_at is None:
            obj.revoked_at, obj.revoked_by = timezone.now(), request.user  # type: ignore[assignment]
            forget_device(obj.token_hash)
        super().save_model(request, obj, form, change)


class StaffProfileInline(admin.StackedInline):
    model = StaffProfile
    can_delete = True
    extra = 0


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(UserAdmin):
    """Staff accounts with their console role."""

    inlines = (StaffProfileInline,)


@admin.register(StoredEvent)
class StoredEventAdmin(ProjectionAdmin):
    list_display = ("position", "stream", "version", "type", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream", "command_id")


admin.site.register(CommandRecord, ProjectionAdmin)
admin.site.register(SubscriptionCursor, ProjectionAdmin)
