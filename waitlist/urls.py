"""Routes of the waiting-list API (under /api/v1/)."""

from django.urls import path

from waitlist import api

_LIST = "waitlists/<slug:list_id>/"

urlpatterns = [
    path("waitlists/", api.WaitlistsView.as_view()),
    path(_LIST, api.WaitlistDetailView.as_view()),
    path(_LIST + "entries/", api.JoinView.as_view()),
    path(_LIST + "close/", api.CloseView.as_view()),
    path(_LIST + "entries/<id:player_id>/leave/", api.LeaveView.as_view()),
    path(_LIST + "entries/<id:player_id>/away/", api.AwayView.as_view()),
    path(_LIST + "calls/", api.CallView.as_view()),
    path(_LIST + "calls/<uuid_id:call_id>/cancel/", api.CancelCallView.as_view()),
    path(_LIST + "calls/<uuid_id:call_id>/no-show/", api.NoShowView.as_view()),
    path(_LIST + "seatings/", api.SeatView.as_view()),
    path(_LIST + "start-game/", api.StartGameView.as_view()),
    path(_LIST + "must-move/", api.MustMoveLinkView.as_view()),
    path(_LIST + "must-move/moves/", api.MustMoveView.as_view()),
    path("board/waitlists/", api.BoardView.as_view()),
]
