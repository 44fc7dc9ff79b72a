from django.urls import path

from casino.api import player_search, players, staff

urlpatterns = [
    path("players/", players.PlayersView.as_view(), name="player-create"),
    path("players/search/", player_search.PlayerSearchView.as_view(), name="player-search"),
    path(
        "players/<id:player_id>/contacts/erase/",
        players.EraseContactsView.as_view(),
        name="player-contacts-erase",
    ),
    # console sessions (casino.api.staff); who may call what: casino.permissions
    path("auth/csrf/", staff.CsrfView.as_view(), name="auth-csrf"),
    path("auth/login/", staff.LoginView.as_view(), name="auth-login"),
    path("auth/logout/", staff.LogoutView.as_view(), name="auth-logout"),
    path("auth/me/", staff.MeView.as_view(), name="auth-me"),
    path("staff/", staff.StaffListView.as_view(), name="staff"),
    path("staff/<id:user_id>/", staff.StaffDetailView.as_view(), name="staff-detail"),
    path("devices/", staff.DeviceListView.as_view(), name="devices"),
    path(
        "devices/<id:device_id>/revoke/",
        staff.RevokeDeviceView.as_view(),
        name="device-revoke",
    ),
]
