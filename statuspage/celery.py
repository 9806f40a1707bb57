import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")

app = Celery("statuspage")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def load_url_configuration(**_kwargs) -> None:
    """Notifications carry links: the URL configuration (and every view module it imports) is
    loaded when the worker starts, not while its first mail waits (docs/subscriptions.md)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - evaluated for its side effect: the import
