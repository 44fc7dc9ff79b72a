"""The contact store: players' callback numbers kept outside the event log (issue #16).

An event that needs a number (a waiting-list entry taken by phone) stores the key
(``ref``) of a :class:`casino.models.Contact` row, written in the same transaction. Erasing
a player's contacts on request blanks the numbers and stamps ``erased_at``; the events keep
their keys and the log is never rewritten. A screen that shows a number resolves the key
when it reads (:func:`phones`), so an erased number is gone everywhere at once.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    them are untouched."""
    return Contact.objects.filter(player_id=player_id, erased_at__isnull=True).update(
        phone="", erased_at=clock.now()
    )
