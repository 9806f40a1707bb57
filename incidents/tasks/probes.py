"""Probe tasks. Those named incidents.probes.* run on the `probes` queue (settings.CELERY_TASK_ROUTES),
except the runs of other regions, sent to each region's own queue.

Thin on purpose: the dispatcher's rows are written before its messages are sent, a run
message only names run ids (or, to another region, carries its runs sealed), and the claim in
the service makes a redelivery harmless.
"""

import logging

from celery import shared_task
from celery.signals import worker_process_shutdown, worker_shutdown
from django.conf import settings

from incidents.probes.engine import drain_engine, get_engine, worker_name
from incidents.probes.regional import opened_runs
from incidents.probes.sealing import BadSeal, seal
from incidents.services.health import mark_stale_metrics
from incidents.services.probes import claim_runs, dispatch_due_runs, prune_old_data, sweep_abandoned_runs
from incidents.services.regional_results import verified_region_results
from incidents.services.regions import key_of

logger = logging.getLogger(__name__)

MESSAGE_BATCH = 50
SEALED_BATCH = 200


@shared_task(name="incidents.probes.dispatch", ignore_result=True)
def dispatch() -> int:
    due = dispatch_due_runs()
    for start in range(0, len(due.home), MESSAGE_BATCH):
        run_probes.apply_async(args=[due.home[start : start + MESSAGE_BATCH]])
    for region, specs in due.remote.items():
        key = key_of(region)
        for start in range(0, len(specs), SEALED_BATCH):
            sealed = seal(
                {"runs": specs[start : start + SEALED_BATCH], "reference_url": region.reference_url}, key=key
            )
            run_sealed.apply_async(args=[region.name, sealed], queue=region.queue)
    return len(due.home) + sum(len(specs) for specs in due.remote.values())


@shared_task(name="incidents.probes.run", ignore_result=True)
def run_probes(run_ids: list[int]) -> int:
    specs = claim_runs(run_ids, worker=worker_name())
    if specs:
        get_engine().submit(specs)
    return len(specs)


@shared_task(name="incidents.probes.run_sealed", ignore_result=True)
def run_sealed(region: str, sealed: str) -> int:
    """On a region's worker: the runs the centre sent this region, opened with its key."""
    if region != settings.PROBE_REGION:
        logger.warning("runs for region %s dropped: this worker is region %r", region, settings.PROBE_REGION)
        return 0
    try:
        specs, reference_url = opened_runs(sealed)
    except BadSeal:
        # Every run of the region is then abandoned at the centre: say why, where it can be fixed.
        logger.warning("runs for region %s refused: not sealed with this worker's PROBE_REGION_KEY", region)
        return 0
    engine = get_engine()
    engine.watch_reachability(reference_url)
    if specs:
        engine.submit(specs)
    return len(specs)


@shared_task(name="incidents.probes.results", ignore_result=True)
def store_results(region: str, body: str, signature: str) -> int:
    """At the centre: a region's signed results, stored by this worker's result writer together
    with whatever else it holds (one transaction for many messages costs far less than one each)."""
    results = verified_region_results(region, body, signature)
    if results:
        get_engine().store_later(results)
    return len(results)


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
