from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from django_structlog import signals

        from casino import logs, metrics
        from casino.eventstore import store

        store.appended_listeners.append(metrics.count_committed)

        # the principal (device or staff user) on each request's last log line
        signals.bind_extra_request_finished_metadata.connect(logs.bind_request_actor)
