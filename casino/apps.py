from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from casino import security  # noqa: F401  (registers the deploy check)
