"""One way to page and filter every list endpoint (django-filter).

:class:`StrictFilterSet` answers 400 ``unknown_filter`` for a query parameter it does not
know (a misspelt filter would otherwise silently return everything); the paging parameters
``page`` and ``page_size`` are always allowed. :class:`Pagination`: ``?page=N&page_size=M``
(default 50, at most 500), answered as ``{count, next, previous, results}``.
:class:`IdFilter`: an id or a count in a query string, a whole number from 0 to
``MAX_ID`` (400 ``invalid_request`` otherwise, never a database error).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any, ClassVar

import django_filters
from django import forms
from django_filters.fields import IsoDateTimeField
from drf_spectacular.utils import extend_schema_field
from rest_framework.pagination import PageNumberPagination

from casino.api.serializers import MAX_ID
from casino.errors import BadRequest
from casino.numbers import whole_number


class _UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 instant that exists in UTC: ``0001-01-01T00:00+14:00`` parses, but is
    before year 1 in UTC, and the database adapter raised ``OverflowError`` (a 500, found
    by fuzzing); it is a form error, so 400 ``invalid_request``."""

    def to_python(self, value: Any) -> Any:
        parsed = super().to_python(value)
        if parsed is not None:
            try:
                parsed.astimezone(UTC)
            except OverflowError:
                raise forms.ValidationError("Out of range in UTC.", code="invalid") from None
        return parsed


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """``?date_from=`` and the like: an ISO 8601 date-time with an offset (naive: the
    room's time zone) that lies between years 1 and 9999 in UTC; 400 ``invalid_request``
    otherwise."""

    field_class = _UtcDateTimeField


PAGING_PARAMETERS = frozenset({"page", "page_size", "format"})


class UnknownFilter(BadRequest):
    """A list request named a filter the endpoint does not have (400 ``unknown_filter``)."""

    def __init__(self, unknown: list[str], known: list[str]) -> None:
        super().__init__(
            "unknown_filter",
            f"Unknown filter: {', '.join(unknown)}.",
            unknown=unknown,
            allowed=known,
        )


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.NumberFilter):
    """A query parameter naming an id (table, player) or a number (hand number): a whole
    number from 1 to ``MAX_ID``, as the bodies take them (``?table_id=0`` named no table
    and was taken as a filter matching nothing, found by QA). django-filter's
    ``NumberFilter`` takes any decimal (``-2.4e87``), which the database refused with a
    server error; this answers 400
    ``invalid_request`` instead. The schema says an integer with those bounds (it said
    ``number`` on some reports, found by QA)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class StrictFilterSet(django_filters.FilterSet):
    """A FilterSet that refuses query parameters it does not define.

    Raises:
        UnknownFilter (400 ``unknown_filter``) when it is evaluated with one.
    """

    extra_parameters: ClassVar[frozenset[str]] = frozenset()
    ranges: ClassVar[tuple[tuple[str, str], ...]] = ()
    """``(low, high)`` filter pairs that must run forwards: a reversed range is a mistake
    (400 ``invalid_request``), not an empty list (found by fuzzing)."""

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(data, *args, **kwargs)
        if data is not None:
            known = set(self.filters) | PAGING_PARAMETERS | self.extra_parameters
            unknown = sorted(set(data) - known)
            if unknown:
                raise UnknownFilter(unknown, sorted(set(self.filters)))

    def is_valid(self) -> bool:
        """Valid filters, and each of :attr:`ranges` running forwards."""
        if not super().is_valid():
            return False
        data = self.form.cleaned_data
        for low, high in self.ranges:
            if data.get(low) is not None and data.get(high) is not None and data[low] > data[high]:
                self.form.add_error(high, f"The range ends before it starts ({low}).")
                return False
        return True


class BadPaging(BadRequest):
    """``page`` or ``page_size`` is not a whole number in range (400 ``invalid_paging``)."""

    def __init__(self, parameter: str, detail: str) -> None:
        super().__init__("invalid_paging", detail, parameter=parameter)


def _whole(request: Any, parameter: str, low: int, high: int) -> int | None:
    text = request.query_params.get(parameter)
    if text is None:
        return None
    number = whole_number(text.strip())
    if number is None or not low <= number <= high:
        raise BadPaging(parameter, f"{parameter} is a whole number from {low} to {high}.")
    return number


class Pagination(PageNumberPagination):
    """``?page=N&page_size=M``: N from 1, M from 1 to 500 (default 50); anything else
    answers 400 ``invalid_paging`` (DRF took ``page_size=abc`` or ``-5`` as the default and
    ``page=0`` as 404 "Invalid page", found by fuzzing). A page past the last is 404.

    Raises:
        BadPaging (400 ``invalid_paging``).
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Any) -> int:
        return _whole(request, self.page_size_query_param, 1, self.max_page_size) or self.page_size

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        _whole(request, self.page_query_param, 1, 10**9 - 1)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The schema says the bounds the server holds to (schemathesis sent 0 and -1,
        refused as documented nowhere; found by QA)."""
        bounds = {
            self.page_query_param: (1, 10**9 - 1),
            self.page_size_query_param: (1, self.max_page_size),
        }
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            low, high = bounds[parameter["name"]]
            parameter["schema"] = {"type": "integer", "minimum": low, "maximum": high}
        return parameters
