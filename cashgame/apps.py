from django.apps import AppConfig


class CashgameConfig(AppConfig):
    name = "cashgame"
    verbose_name = "Cash games"

    def ready(self) -> None:
        from cashgame import projections  # noqa: F401  (registers the projection)
