from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino core"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save
        from django.urls import register_converter

        from casino import (
            error_texts,  # noqa: F401  (the refusals' sentences in Czech)
            security,  # noqa: F401  (registers the deploy check)
        )
        from casino.api.converters import IdConverter, UuidConverter
        from casino.models import Device
        from casino.realtime import revocation

        register_converter(IdConverter, "id")  # before any app's URLs are read
        register_converter(UuidConverter, "uuid_id")
        post_save.connect(revocation.on_device_saved, sender=Device, weak=False)
        post_save.connect(revocation.on_user_saved, sender=get_user_model(), weak=False)

        from django_structlog import signals

        from casino import logs, metrics
        from casino.eventstore import store

        store.appended_listeners.append(metrics.count_committed)

        # the principal (device or staff user) on each request's last log line
        signals.bind_extra_request_finished_metadata.connect(logs.bind_request_actor)
        signals.bind_extra_request_metadata.connect(logs.bind_request_ip)
