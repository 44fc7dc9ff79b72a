"""Casino poker room back end: project package and core app."""

from casino.celery import app as celery_app

__all__ = ["celery_app"]
