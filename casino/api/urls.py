from django.urls import path

from casino import admin_api
from casino.api import player_search, players

urlpatterns = [
    path("players/", players.PlayersView.as_view(), name="player-create"),
    path("players/search/", player_search.PlayerSearchView.as_view(), name="player-search"),
    path(
        "players/<int:player_id>/contacts/erase/",
        players.EraseContactsView.as_view(),
        name="player-contacts-erase",
    ),
    # console sessions (casino.admin_api); who may call what: casino.permissions
    path("auth/csrf/", admin_api.CsrfView.as_view(), name="auth-csrf"),
    path("auth/login/", admin_api.LoginView.as_view(), name="auth-login"),
    path("auth/logout/", admin_api.LogoutView.as_view(), name="auth-logout"),
    path("auth/me/", admin_api.MeView.as_view(), name="auth-me"),
    path("staff/", admin_api.StaffListView.as_view(), name="staff"),
    path("staff/<int:user_id>/", admin_api.StaffDetailView.as_view(), name="staff-detail"),
    path("devices/", admin_api.DeviceListView.as_view(), name="devices"),
    path(
        "devices/<int:device_id>/revoke/",
        admin_api.RevokeDeviceView.as_view(),
        name="device-revoke",
    ),
]
