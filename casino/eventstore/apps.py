from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    name = "casino.eventstore"
    label = "eventstore"
    verbose_name = "Event store"
