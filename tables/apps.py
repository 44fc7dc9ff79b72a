from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and hands"

    def ready(self) -> None:
        from casino.realtime import groups
        from tables import feeds, projections  # noqa: F401  (registers the projection)

        groups.register(feeds.route)
