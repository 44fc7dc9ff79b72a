from django.urls import path

from tables import api, rulings_api, show_api
from tables.hand_list import HandExportView, HandListMixin, HandPhhView, HandPokerStarsView


class HandsView(HandListMixin, api.StartHandView):
    """``GET`` lists the table's hands (:mod:`tables.hand_list`), ``POST`` starts one."""


urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="tables"),
    path("tables/<id:table_id>/", api.TableDetailView.as_view(), name="table"),
    path("tables/<id:table_id>/seats/", api.SeatPlayerView.as_view(), name="seat-player"),
    path("tables/<id:table_id>/seat-check/", api.SeatCheckView.as_view(), name="seat-check"),
    path(
        "tables/<id:table_id>/seats/<id:seat>/cash-out/",
        api.CashOutView.as_view(),
        name="cash-out",
    ),
    path(
        "tables/<id:table_id>/seats/<id:seat>/sit-out/",
        api.SitOutView.as_view(),
        name="sit-out",
    ),
    path("tables/<id:table_id>/seats/<id:seat>/sit-in/", api.SitInView.as_view(), name="sit-in"),
    path(
        "tables/<id:table_id>/seats/<id:seat>/change/",
        api.SeatChangeView.as_view(),
        name="seat-change",
    ),
    path("tables/<id:table_id>/shuffle/", api.ShuffleView.as_view(), name="shuffle"),
    path("tables/<id:table_id>/next-hand/", api.NextHandView.as_view(), name="next-hand"),
    path("tables/<id:table_id>/players/", api.TablePlayersView.as_view(), name="table-players"),
    path("tables/<id:table_id>/hands/", HandsView.as_view(), name="start-hand"),
    path("tables/<id:table_id>/hands/export/", HandExportView.as_view(), name="hands-export"),
    path("hands/<uuid_id:hand_id>/", api.HandDetailView.as_view(), name="hand"),
    path("hands/<uuid_id:hand_id>/log/", api.HandLogView.as_view(), name="hand-log"),
    path("hands/<uuid_id:hand_id>/phh/", HandPhhView.as_view(), name="hand-phh"),
    path(
        "hands/<uuid_id:hand_id>/pokerstars/",
        HandPokerStarsView.as_view(),
        name="hand-pokerstars",
    ),
    path("hands/<uuid_id:hand_id>/actions/", api.RecordActionView.as_view(), name="hand-action"),
    path("hands/<uuid_id:hand_id>/board/", api.DealBoardView.as_view(), name="hand-board"),
    path("hands/<uuid_id:hand_id>/show/", api.ShowCardsView.as_view(), name="hand-show"),
    path("hands/<uuid_id:hand_id>/muck/", api.MuckCardsView.as_view(), name="hand-muck"),
    path("hands/<uuid_id:hand_id>/award/", api.AwardPotsView.as_view(), name="hand-award"),
    path("hands/<uuid_id:hand_id>/run-it/", api.RunItView.as_view(), name="hand-run-it"),
    path("hands/<uuid_id:hand_id>/misdeal/", api.MisdealView.as_view(), name="hand-misdeal"),
    path("hands/<uuid_id:hand_id>/void/", api.VoidHandView.as_view(), name="hand-void"),
    path("hands/<uuid_id:hand_id>/rabbit-hunt/", api.RabbitHuntView.as_view(), name="hand-rabbit"),
    # the floor's rulings during a hand (issue #15)
    path("hands/<uuid_id:hand_id>/chips/", rulings_api.ReadChipsView.as_view(), name="hand-chips"),
    path("hands/<uuid_id:hand_id>/clock/", rulings_api.CallClockView.as_view(), name="hand-clock"),
    path(
        "hands/<uuid_id:hand_id>/exposures/",
        rulings_api.RecordExposureView.as_view(),
        name="hand-exposure",
    ),
    path("hands/<uuid_id:hand_id>/burns/", rulings_api.RecordBurnView.as_view(), name="hand-burn"),
    path(
        "hands/<uuid_id:hand_id>/show-requests/",
        rulings_api.RequestShowView.as_view(),
        name="hand-show-request",
    ),
    path(
        "hands/<uuid_id:hand_id>/absences/",
        rulings_api.RecordAbsenceView.as_view(),
        name="hand-absence",
    ),
    path(
        "hands/<uuid_id:hand_id>/out-of-turn/",
        rulings_api.RecordOutOfTurnView.as_view(),
        name="hand-out-of-turn",
    ),
    path(
        "hands/<uuid_id:hand_id>/irregularities/",
        rulings_api.RuleIrregularityView.as_view(),
        name="hand-irregularity",
    ),
    path(
        "hands/<uuid_id:hand_id>/corrections/",
        rulings_api.CorrectResultView.as_view(),
        name="hand-correction",
    ),
    path(
        "hands/<uuid_id:hand_id>/rabbit-consent/",
        rulings_api.RecordRabbitConsentView.as_view(),
        name="hand-rabbit-consent",
    ),
    path(
        "hands/<uuid_id:hand_id>/chop-exception/",
        rulings_api.RecordChopExceptionView.as_view(),
        name="hand-chop-exception",
    ),
    # Show poker tables (SHOW-1..27)
    path(
        "tables/<id:table_id>/show-hands/",
        show_api.StartShowHandView.as_view(),
        name="start-show-hand",
    ),
    path("show-hands/<uuid_id:hand_id>/", show_api.ShowHandDetailView.as_view(), name="show-hand"),
    path(
        "players/<id:player_id>/show-penalties/",
        show_api.RecordShowPenaltyView.as_view(),
        name="show-penalty",
    ),
    *(
        path(f"show-hands/<uuid_id:hand_id>/{show_api.PATHS[op]}/", view.as_view(), name=op)
        for op, view in show_api.VIEWS.items()
    ),
]
