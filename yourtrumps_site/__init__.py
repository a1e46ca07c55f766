"""The Django project of Your Trumps: settings, URLs, the ASGI router and the Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
