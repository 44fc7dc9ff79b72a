"""Django admin (/admin/): configuration editable, projections and the log read-only, and
nothing done in the admin appends an event."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory

from cashgame.models import RakeSchedule, StakesLimits
from casino.eventstore.models import StoredEvent
from casino.models import Device, Player, StaffProfile

EDITABLE = {Player, Device, StaffProfile, StakesLimits, RakeSchedule, get_user_model()}


@pytest.fixture
def staff(db: None) -> Client:
    user = get_user_model().objects.create_superuser("boss", password="pw")
    client = Client()
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


def test_only_configuration_is_editable_everything_else_is_read_only(staff: Client) -> None:
    request = RequestFactory().get("/admin/")
    request.user = staff.user  # type: ignore[attr-defined]
    registered = admin.site._registry
    assert {StoredEvent, StakesLimits, RakeSchedule, Player, Device} <= set(registered)
    for model, model_admin in registered.items():
        writable = (
            model_admin.has_add_permission(request)
            or model_admin.has_change_permission(request)
            or model_admin.has_delete_permission(request)
        )
        # django-axes' lockout records are the security admin's (unlock = delete a record)
        assert writable == (model in EDITABLE or model._meta.app_label in {"auth", "axes"}), model


def test_every_admin_page_opens_for_staff(staff: Client, tablet: Any, nlh_table: int) -> None:
    for model in admin.site._registry:
        meta = model._meta
        response = staff.get(f"/admin/{meta.app_label}/{meta.model_name}/")
        assert response.status_code == 200, (meta.label, response.status_code)
    assert Client().get("/admin/").status_code == 302  # to the login page


def test_editing_the_rake_schedule_appends_no_event(staff: Client) -> None:
    before = StoredEvent.objects.count()
    step = RakeSchedule.objects.create(game="PLO", from_small_blind=500, percent_bp=500, cap=200)
    response = staff.post(
        f"/admin/cashgame/rakeschedule/{step.pk}/change/",
        {"game": "PLO", "from_small_blind": 500, "percent_bp": 400, "cap": 250},
    )
    assert response.status_code == 302, response.content[:500]
    step.refresh_from_db()
    assert (step.percent_bp, step.cap) == (400, 250)
    assert StoredEvent.objects.count() == before


def test_a_projection_cannot_be_changed_through_the_admin(staff: Client, nlh_table: int) -> None:
    response = staff.post(f"/admin/tables/tableview/{nlh_table}/change/", {"name": "renamed"})
    assert response.status_code in (302, 403)
    from tables.models import TableView

    assert TableView.objects.get(pk=nlh_table).name != "renamed"
