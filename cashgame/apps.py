from django.apps import AppConfig


class CashgameConfig(AppConfig):
    name = "cashgame"
