from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        from casino import table_lookup
        from casino.realtime import groups
        from tables import (  # noqa: F401  (registers the projection, upcasters, error texts)
            error_texts,
            feeds,
            projections,
            upcasters,
        )
        from tables.selectors import TablesLookup

        groups.register(feeds.route)
        table_lookup.install(TablesLookup())
