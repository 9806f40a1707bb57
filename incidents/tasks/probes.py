"""Probe tasks. Those named incidents.probes.* run on the `probes` queue (settings.CELERY_TASK_ROUTES).

Thin on purpose: the dispatcher's rows are written before its messages are sent, a run
message only names run ids, and the claim in the service makes a redelivery harmless.
"""

from celery import shared_task
from celery.signals import worker_process_shutdown, worker_shutdown
from django.conf import settings

from incidents.probes.engine import drain_engine, get_engine, worker_name
from incidents.services.health import mark_stale_metrics
from incidents.services.probes import claim_runs, dispatch_due_probes, prune_old_data, sweep_abandoned_runs

MESSAGE_BATCH = 50


@shared_task(name="incidents.probes.dispatch", ignore_result=True)
def dispatch() -> int:
    run_ids = dispatch_due_probes()
    for start in range(0, len(run_ids), MESSAGE_BATCH):
        run_probes.apply_async(args=[run_ids[start : start + MESSAGE_BATCH]])
    return len(run_ids)


@shared_task(name="incidents.probes.run", ignore_result=True)
def run_probes(run_ids: list[int]) -> int:
    specs = claim_runs(run_ids, worker=worker_name())
    if specs:
        get_engine().submit(specs)
    return len(specs)


@shared_task(name="incidents.probes.watchdog", ignore_result=True)
def watchdog() -> int:
    abandoned = sweep_abandoned_runs()
    mark_stale_metrics()
    return abandoned


@shared_task(name="incidents.metrics.prune", ignore_result=True)
def prune() -> dict[str, int]:
    return prune_old_data()


@worker_process_shutdown.connect
@worker_shutdown.connect  # the solo pool runs tasks in the main process
def _finish_runs_in_flight(**_kwargs) -> None:
    # A warm shutdown lets runs in flight end and be stored; the watchdog covers a kill.
    drain_engine(timeout=settings.PROBE_MAX_TIMEOUT + 2)
