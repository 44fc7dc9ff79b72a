from django.apps import AppConfig


class CashgameConfig(AppConfig):
    name = "cashgame"
    verbose_name = "Cash games"

    def ready(self) -> None:
        from cashgame import (  # noqa: F401  (registers the projection and the error texts)
            error_texts,
            projections,
        )
        from cashgame.table_rules import RoomCashRules
        from tables import cash_rules

        cash_rules.install(RoomCashRules())  # what seating asks the cash game
