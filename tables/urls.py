from django.urls import path

from tables import api

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="tables"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="table"),
    path("tables/<int:table_id>/seats/", api.SeatPlayerView.as_view(), name="seat-player"),
    path(
        "tables/<int:table_id>/seats/<int:seat>/cash-out/",
        api.CashOutView.as_view(),
        name="cash-out",
    ),
]
