"""Celery tasks, one module per area. Tasks are thin: load rows, call a service, decide on retry.

Queues: `probes` (measurements only), `notify` (emails and webhooks), `default` (the rest),
chosen by task name in settings.CELERY_TASK_ROUTES; and `node.<NODE_NAME>`, where each node's
scheduler sends what the node does for itself (its snapshot).
Each module is imported here so Celery's autodiscovery registers its tasks.
"""

from . import database, demo, maintenance, notify, probes, scheduling, snapshot

__all__ = ["database", "demo", "maintenance", "notify", "probes", "scheduling", "snapshot"]
