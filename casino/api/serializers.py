"""Strict request parsing shared by every API app (issue #12 A).

Every request body is parsed by a :class:`RequestSerializer`:

* a field the operation does not take is refused (400 ``unknown_field``), never ignored
  -- a cash-out with ``{"amount": 100}`` must not cash out the whole stack;
* money, chips, seats and counts are :class:`StrictIntegerField`: a JSON integer, never
  ``"40"``, ``40.0`` or ``true`` (400 ``not_an_integer``), and always bounded;
* text is :class:`SafeCharField`: bounded, without control characters or bidi overrides
  (400 ``forbidden_characters``): names and nicknames reach the public boards;
* lists are bounded (``max_length``), so no request can make the server allocate
  without limit.

``tests/casino/test_bad_input.py`` walks every operation's request serializer and checks
these bounds, so a new endpoint cannot forget them. The exception handler
(:mod:`casino.api.errors`) promotes the codes above to the answer's top-level ``code``.
"""

import copy
import unicodedata
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from casino.permissions import UNKNOWN_FIELD_MESSAGE

UNKNOWN_FIELD = "unknown_field"
NOT_AN_INTEGER = "not_an_integer"
FORBIDDEN_CHARACTERS = "forbidden_characters"

MAX_ID = 2**31 - 1
"""Largest id (player, table, tournament) a request may name."""

# Unicode categories never allowed in a name: controls (Cc), format characters (Cf: bidi
# embeddings, overrides and isolates U+202A..202E, U+2066..2069, marks U+200E/F, zero-width
# joiners), line and paragraph separators, surrogates, private use and unassigned points.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def forbidden_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of ``text`` not allowed in a name or a note, or ``None``.

    ``multiline`` allows line feeds and tabs (free-text reasons); nothing else of the
    categories in ``_FORBIDDEN_CATEGORIES`` is ever allowed.
    """
    for char in text:
        if multiline and char in "\n\t":
            continue
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            return char
    return None


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer between ``min_value`` and ``max_value`` (both required): strings,
    floats and booleans are refused with code ``not_an_integer``.

    Units (CZK, chips, seats, seconds) are the field's; see its ``help_text``.
    """

    default_error_messages = {NOT_AN_INTEGER: _("A whole number is required (a JSON integer).")}

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail(NOT_AN_INTEGER)
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``: the strings and numbers DRF would read as a boolean
    (``"yes"``, ``"off"``, ``1``, ``"0"``) are refused with code ``invalid``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class PasswordField(serializers.CharField):
    """A password: a JSON string of at most 4,096 characters, kept as typed (no trimming);
    a number or a boolean is refused with code ``invalid`` rather than turned into text."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 4096)
        super().__init__(trim_whitespace=False, style={"input_type": "password"}, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class BoundedListField(serializers.ListField):
    """A list with ``max_length`` (required), whose length is checked before any item.

    DRF's ``ListField`` validates every item, then the length: a 200,000-item list for a
    field of 10 took 8 s of one worker and 300 MB, and answered an 11 MB error listing each
    item (found by QA). Here a list that is too long is refused at once with one short
    message (400 ``invalid_request``, ``errors: {field: [...]}``), as DRF's
    ``ListSerializer`` (``many=True``) already does.
    """

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, list) and len(data) > self.max_length:  # type: ignore[operator]
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class SafeCharField(serializers.CharField):
    """Text of at most ``max_length`` (required) characters without control characters or
    bidi overrides (code ``forbidden_characters``); ``multiline`` allows line feeds and
    tabs. Surrounding whitespace is trimmed (DRF's default)."""

    default_error_messages = {
        FORBIDDEN_CHARACTERS: _("Control characters and bidi overrides are not allowed.")
    }

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs: Any) -> None:
        self.multiline = multiline
        super().__init__(max_length=max_length, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool | int | float):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if forbidden_character(value, multiline=self.multiline) is not None:
            self.fail(FORBIDDEN_CHARACTERS)
        return value


def _is_leaf(field: serializers.Field) -> bool:
    """Whether ``field`` holds no other field (no ``child``, ``child_relation`` or
    declared fields of its own)."""
    return not any(hasattr(field, name) for name in ("child", "child_relation", "_declared_fields"))


class RequestSerializer(serializers.Serializer):
    """Base of every request body (and of its nested objects): a key the serializer does
    not declare is refused with code ``unknown_field``.

    Each instance gets shallow copies of its declared leaf fields (DRF builds every field
    anew, re-running its ``__init__``, for every request: a tenth of a dealer action's
    serializer work). A bound copy owns what binding sets (name, parent, label, source); a
    field holding other fields (a list's ``child``, a nested serializer) is still deep-copied,
    since binding its copy must not rebind the declared originals it holds.
    """

    def get_fields(self) -> dict[str, serializers.Field]:
        return {
            name: copy.copy(field) if _is_leaf(field) else copy.deepcopy(field)
            for name, field in self._declared_fields.items()
        }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = [key for key in data if key not in self.fields or self.fields[key].read_only]
            if unknown:
                raise ValidationError(
                    {
                        str(key)[:100]: [
                            serializers.ErrorDetail(str(UNKNOWN_FIELD_MESSAGE), code=UNKNOWN_FIELD)
                        ]
                        for key in unknown[:20]
                    }
                )
        return super().to_internal_value(data)


class NoBody(RequestSerializer):
    """An operation without parameters: the body must be empty (``{}``) or absent."""


PROMOTED_CODES = (UNKNOWN_FIELD, NOT_AN_INTEGER, FORBIDDEN_CHARACTERS)
"""Field error codes that name the answer's top-level ``code``."""


def promoted_code(codes: Any) -> str | None:
    """The answer's code for a ``ValidationError.get_codes()`` tree: ``unknown_field`` if
    any field is unknown; else the one promoted code when every field error has it;
    else ``None`` (``invalid_request``)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, Mapping):
            for child in node.values():
                walk(child)
        elif isinstance(node, list | tuple):
            for child in node:
                walk(child)

    walk(codes)
    if UNKNOWN_FIELD in found:
        return UNKNOWN_FIELD
    if len(found) == 1 and (code := next(iter(found))) in PROMOTED_CODES:
        return code
    return None


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO-8601 time that carries its UTC offset (``2030-01-01T10:00:00+01:00`` or
    ``...Z``). A time without one is refused: read in the server's zone (UTC) it would be
    an hour or two off the room's wall clock, silently (a tournament's late registration
    or start time, for one)."""

    default_error_messages = {
        "offset_required": _(
            "This time has no UTC offset: give one, e.g. "
            "2030-01-01T10:00:00+01:00 or 2030-01-01T09:00:00Z."
        ),
    }

    def to_internal_value(self, value: Any) -> datetime:
        parsed = value if isinstance(value, datetime) else None
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:
                parsed = None  # not a valid time: the field's own message says so
        if parsed is not None and parsed.utcoffset() is None:
            self.fail("offset_required")
        return super().to_internal_value(value)
