import os

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_init
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone, translation

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")


class TaskInContext(Task):
    """Every task runs in the site's language and time zone, whatever an earlier task left active.
    A periodic job sent by the scheduler runs only if its slot has not run yet (on any node)."""

    def __call__(self, *args, **kwargs):
        from incidents.scheduling import runs

        scheduled = kwargs.pop(runs.SLOT_ARGUMENT, None)
        if scheduled is not None and not runs.claim(runs.Slot.from_argument(scheduled)):
            return None
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


@task_prerun.connect
@task_postrun.connect
def keep_database_connection(sender: Task | None = None, **_kwargs) -> None:
    """A task finds the connection the previous one used, as a request does (closed past
    CONN_MAX_AGE, checked before use); see CELERY_DB_REUSE_MAX. Not for a task run eagerly:
    its caller's transaction holds the connection."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    close_old_connections()
