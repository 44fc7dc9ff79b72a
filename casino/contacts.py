"""The contact store: players' callback numbers kept outside the event log (issue #16).

An event that needs a number (a waiting-list entry taken by phone) stores the key
(``ref``) of a :class:`casino.models.Contact` row, written in the same transaction. Erasing
a player's contacts on request blanks the numbers and stamps ``erased_at``; the events keep
their keys and the log is never rewritten. A screen that shows a number resolves the key
when it reads (:func:`phones`), so an erased number is gone everywhere at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casino import clock
from casino.models import Contact


def keep_phone(*, player_id: int, phone: str) -> str:
    """Store ``phone`` for ``player_id``; returns its key (a UUID string) for the event."""
    return str(Contact.objects.create(player_id=player_id, phone=phone).ref)


def phones(refs: Iterable[str]) -> dict[str, str]:
    """The numbers behind ``refs`` (``{ref: phone}``; an erased one is ``""``, an unknown
    key is left out). One query."""
    wanted = {ref for ref in refs if ref}
    if not wanted:
        return {}
    rows = Contact.objects.filter(ref__in=wanted).values_list("ref", "phone")
    return {str(ref): phone for ref, phone in rows}


def erase(*, player_id: int) -> int:
    """Erase every contact number of ``player_id`` (a data-protection request); returns
    how many numbers were erased now (0 when there were none left). The events that name
    them are untouched. The answers kept for idempotent retries
    (:class:`casino.eventstore.models.CommandRecord`) that showed a number are scrubbed
    too, so a retried request never shows it again."""
    rows = Contact.objects.filter(player_id=player_id, erased_at__isnull=True)
    numbers = {phone for phone in rows.values_list("phone", flat=True) if phone}
    erased = rows.update(phone="", erased_at=clock.now())
    _scrub_kept_answers(numbers)
    return erased


def _scrub_kept_answers(numbers: set[str]) -> None:
    """Blank every string equal to one of ``numbers`` in the kept command answers."""
    from django.db.models import TextField
    from django.db.models.functions import Cast

    from casino.eventstore.models import CommandRecord

    if not numbers:
        return
    as_text = CommandRecord.objects.annotate(text=Cast("response", TextField()))
    for number in numbers:
        for record in as_text.filter(text__contains=number).only("pk", "response"):
            record.response = _without(record.response, numbers)
            record.save(update_fields=["response"])


def _without(value: Any, numbers: set[str]) -> Any:
    if isinstance(value, str):
        return "" if value in numbers else value
    if isinstance(value, list):
        return [_without(v, numbers) for v in value]
    if isinstance(value, dict):
        return {k: _without(v, numbers) for k, v in value.items()}
    return value
