"""Path converters of the API's URLs."""

from __future__ import annotations

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
