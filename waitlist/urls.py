"""Routes of the waiting-list API (under /api/v1/)."""

from django.urls import path, register_converter

from waitlist import api


class ListIdConverter:
    """``<list_id:list_id>``: a list's id in a path (``nlh-10-20``, ``plo-25-50-change``:
    :func:`waitlist.services.list_id_for`), a slug of at most 64 characters. A longer one is
    no list, and answers the plain JSON 404 ``not_found`` without echoing what was sent."""

    regex = "[-a-zA-Z0-9_]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ListIdConverter, "list_id")

_LIST = "waitlists/<list_id:list_id>/"

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
