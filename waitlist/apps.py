from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured


class WaitlistConfig(AppConfig):
    name = "waitlist"
    verbose_name = "Waiting lists"

    def ready(self) -> None:
        from casino.realtime import groups
        from waitlist import (  # noqa: F401  (register the projection, upcasters, error texts)
            error_texts,
            projections,
            upcasters,
        )
        from waitlist.consumers import route
        from waitlist.services import no_show_policy

        groups.register(route)
        try:  # a wrong house rule fails at start-up, not when a call expires
            no_show_policy()
        except ValueError as error:
            raise ImproperlyConfigured(
                f"WAITLIST_NO_SHOW_ACTION / _PLACES / WAITLIST_MAX_MISSES: {error}"
            ) from None
