"""Path converters of the API's URLs."""

from __future__ import annotations

import uuid

from casino.api.serializers import MAX_ID


class IdConverter:
    """``<id:name>``: a record id in a path, 1 to ``MAX_ID`` (a 32-bit positive integer,
    the bound of ids in request bodies too). A larger number, 0 or a leading sign is no
    match, so it answers the JSON 404 ``not_found`` instead of reaching the database with a
    number it cannot store (SQLite's and PostgreSQL's integers overflow: a 500)."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError(value)  # Django: this path does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class UuidConverter:
    """``<uuid_id:name>``: a UUID in a path (a hand, a sidebet, a call), in either case
    (RFC 9562 §4: UUIDs are read case-insensitively), as a :class:`uuid.UUID`; its string is
    lower case like every UUID the API writes. Django's ``uuid`` took lower case only, so an
    upper-case id answered "no such path" (found by fuzzing)."""

    regex = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value: uuid.UUID | str) -> str:
        return str(value).lower()
