"""Each task runs on the queue its workers consume: probes on `probes`, mail and webhooks on
`notify`, the rest on `default`, all decided by the one routes table in the settings."""

import pytest

import incidents.tasks  # noqa: F401  (registers every task)
from statuspage.celery import app

QUEUE_OF_TASK = {
    "incidents.database.prune_counters": "default",
    "incidents.database.refresh_statistics": "default",
    "incidents.demo.feed": "default",
    "incidents.maintenance.advance": "default",
    "incidents.metrics.prune": "default",
    "incidents.notify.dispatch": "notify",
    "incidents.notify.overdue_reminders": "notify",
    "incidents.notify.sweep": "notify",
    "incidents.probes.dispatch": "probes",
    "incidents.probes.results": "probes",
    "incidents.probes.run": "probes",
    # Sent to each region's own queue (probes.<region>) when dispatched; `probes` by name.
    "incidents.probes.run_sealed": "probes",
    "incidents.probes.watchdog": "probes",
    "incidents.scheduling.prune": "default",
    # Sent by each node's scheduler to its own queue (node.<NODE_NAME>); `default` by name.
    "incidents.snapshot.export": "default",
    "incidents.snapshot.follow": "default",
}


def registered_tasks():
    return {name: task for name, task in app.tasks.items() if name.startswith("incidents.")}


def queue_of(task) -> str:
    options = {"queue": task.queue} if getattr(task, "queue", None) else {}
    return app.amqp.router.route(options, task.name, (), {})["queue"].name


def test_every_registered_task_has_a_known_queue():
    assert sorted(registered_tasks()) == sorted(QUEUE_OF_TASK)


@pytest.mark.parametrize(("name", "queue"), sorted(QUEUE_OF_TASK.items()))
def test_the_routes_table_sends_each_task_to_its_queue(name, queue):
    assert queue_of(registered_tasks()[name]) == queue


def test_no_task_picks_its_own_queue():
    assert [name for name, task in registered_tasks().items() if getattr(task, "queue", None)] == []


def test_every_scheduled_job_names_a_registered_task(settings):
    tasks = registered_tasks()
    assert [
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values() if entry["task"] not in tasks
    ] == []
