from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        from casino import table_lookup
        from casino.realtime import groups
        from tables import feeds, projections  # noqa: F401  (registers the projection)
        from tables.selectors import TablesLookup

        groups.register(feeds.route)
        table_lookup.install(TablesLookup())
