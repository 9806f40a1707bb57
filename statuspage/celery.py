import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")

app = Celery("statuspage")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
