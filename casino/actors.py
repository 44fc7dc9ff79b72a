"""Who recorded an event, in words: every event's metadata names its actor
(``device:<id>``, ``user:<id>`` or ``system:<name>``, :mod:`casino.eventstore.context`);
screens that show a log (a hand's replay, the cage journal) show the device's name or the
username beside it."""

from __future__ import annotations

import re
from collections.abc import Iterable


def actor_names(actors: Iterable[str]) -> dict[str, str]:
    """``{actor: name}`` for the devices and staff users among ``actors``, looked up now
    (a renamed device shows its new name); a ``system:`` actor or an unknown id is left
    out. One query per kind."""
    from django.contrib.auth import get_user_model

    from casino.models import Device

    wanted = set(actors)
    device_ids = [int(a.split(":")[1]) for a in wanted if re.fullmatch(r"device:\d+", a)]
    user_ids = [int(a.split(":")[1]) for a in wanted if re.fullmatch(r"user:\d+", a)]
    names = {
        f"device:{pk}": name
        for pk, name in Device.objects.filter(pk__in=device_ids).values_list("pk", "name")
    }
    users = get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")
    names |= {f"user:{pk}": name for pk, name in users}
    return names
