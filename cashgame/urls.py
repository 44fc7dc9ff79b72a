from django.urls import path

from cashgame import api, journal, players, reports

urlpatterns = [
    path("tables/<id:table_id>/seats/<id:seat>/top-up/", api.TopUpView.as_view()),
    path("tables/<id:table_id>/seats/<id:seat>/refreshment/", api.RefreshmentView.as_view()),
    path("tables/<id:table_id>/seats/<id:seat>/transfer/", api.TransferView.as_view()),
    path("tables/<id:table_id>/limits/", api.LimitsView.as_view()),
    path("tables/<id:table_id>/chip-gifts/", api.ChipGiftView.as_view()),
    path(
        "tables/<id:table_id>/seats/<id:seat>/partial-cash-out/",
        api.PartialCashOutView.as_view(),
    ),
    path("players/<id:player_id>/seating-restrictions/", api.RestrictionCreateView.as_view()),
    path("tables/<id:table_id>/close/", api.CloseTableView.as_view()),
    path("tables/<id:table_id>/sidebets/", api.SidebetView.as_view()),
    path(
        "tables/<id:table_id>/sidebets/<uuid_id:sidebet_id>/settle/",
        api.SettleSidebetView.as_view(),
    ),
    path(
        "tables/<id:table_id>/sidebets/<uuid_id:sidebet_id>/call-off/",
        api.CallOffSidebetView.as_view(),
    ),
    path("players/<id:player_id>/", players.PlayerDetailView.as_view()),
    path("players/<id:player_id>/buy-in-restrictions/", api.RestrictionsView.as_view()),
    path("players/<id:player_id>/cash-sessions/", api.SessionsView.as_view()),
    path("cage/sales/", api.SellChipsView.as_view()),
    path("cage/redemptions/", api.RedeemChipsView.as_view()),
    path("cage/redemptions/override/", api.RedeemChipsOverrideView.as_view()),
    path("cage/balance/", api.CageBalanceView.as_view()),
    path("cage/journal/", journal.CageJournal.as_view()),
    path("reports/rake/", reports.RakeReport.as_view()),
    path("reports/drop/", reports.DropReport.as_view()),
    path("reports/drop-by-table/", reports.DropByTableReport.as_view()),
    path("reports/hours-by-player/", reports.HoursByPlayerReport.as_view()),
    path("reports/hours-by-game/", reports.HoursByGameReport.as_view()),
    path("reports/hands-per-hour/", reports.HandsPerHourReport.as_view()),
]
