from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from tournaments import (
            cage_projection,  # noqa: F401  (the cage's tournament money)
            error_texts,  # noqa: F401  (the refusals' sentences in Czech)
            projections,  # noqa: F401  (registers the projection)
            services,
            upcasters,  # noqa: F401  (registers the upcasters)
        )

        services.install()  # tournament tables ask this service for stakes and results
