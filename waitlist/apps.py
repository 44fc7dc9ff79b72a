from django.apps import AppConfig


class WaitlistConfig(AppConfig):
    name = "waitlist"
    verbose_name = "Waiting lists"

    def ready(self) -> None:
        from waitlist import projections  # noqa: F401  (registers the projection)
