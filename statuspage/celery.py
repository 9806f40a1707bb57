import os

from celery import Celery, Task
from celery.signals import worker_init
from django.conf import settings
from django.utils import timezone, translation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")


class TaskInContext(Task):
    """Every task runs in the site's language and time zone, whatever an earlier task left active."""

    def __call__(self, *args, **kwargs):
        with translation.override(settings.LANGUAGE_CODE), timezone.override(settings.STATUS_TIME_ZONE):
            return super().__call__(*args, **kwargs)


app = Celery("statuspage", task_cls=TaskInContext)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def load_url_configuration(**_kwargs) -> None:
    """Loads the URL configuration (and the views it imports) at start, not while a first mail waits."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - evaluated for its side effect: the import
