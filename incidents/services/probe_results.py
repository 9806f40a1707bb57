"""Storing what probes measured: run results in batches, circuit breakers, canary receipts, pushes."""

import datetime as dt

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from incidents.models import (
    BreakerState,
    CircuitBreaker,
    Metric,
    Outcome,
    Probe,
    ProbeRun,
    RunState,
)
from incidents.probes import push, webhook
from incidents.probes.base import RunResult, elapsed_in_unit
from incidents.services.bulk import insert_rows, update_many, update_rows
from incidents.telemetry import instruments
from incidents.validation.instants import check_happened
from incidents.validation.json_bodies import JsonTooDeep, UnstorableText

from .health import evaluate_metrics, group_samples
from .metrics import NewSample, record_samples
from .probes import breaker_key, run_specs
from .regional_health import RegionReading, evaluate_regions
from .regions import active_regions, measuring_regions

SAMPLE_OUTCOMES = {
    RunState.OK: Outcome.OK,
    RunState.FAILED: Outcome.FAILED,
    RunState.TIMEOUT: Outcome.TIMEOUT,
}
BREAKER_FAILURES = (RunState.FAILED, RunState.TIMEOUT)


def _at(epoch: float | None) -> dt.datetime | None:
    return None if epoch is None else dt.datetime.fromtimestamp(epoch, tz=dt.UTC)


def _sample_time(result: RunResult, *, now: dt.datetime) -> dt.datetime:
    """When the run measured its value; a time out of bounds (a clock gone wrong) counts as now,
    so one bad result neither is stored nor takes the batch's other results down with it."""
    try:
        at = _at(result.extra.get("sampled_at", result.finished_at))
        check_happened(at, now=now)
    except (ValidationError, OverflowError, OSError, TypeError, ValueError):
        return now
    return at


@transaction.atomic
def record_run_results(results: list[RunResult]) -> int:
    """Ends runs that are still running (a run the watchdog already ended stays as it is),
    stores their samples, updates rollups, breakers and metric health. Returns how many ended."""
    by_id = {result.spec.run_id: result for result in results}
    live = set(
        ProbeRun.objects.select_for_update()
        .filter(pk__in=by_id, state=RunState.RUNNING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not live:
        return 0
    ended = [by_id[pk] for pk in sorted(live)]
    now = timezone.now()
    _end_runs(ended, now=now)
    for r in ended:
        instruments.count_probe_run(
            kind=r.spec.kind,
            outcome=r.state,
            scheduled_at=r.spec.scheduled_at,
            started_at=r.started_at,
            finished_at=r.finished_at,
        )
    measured = [r for r in ended if r.state in SAMPLE_OUTCOMES]
    metrics = Metric.objects.select_related("probe").in_bulk({r.spec.metric_id for r in measured})
    entries = [
        NewSample(
            metrics[r.spec.metric_id],
            r.value if r.state == RunState.OK else None,
            _sample_time(r, now=now),
            SAMPLE_OUTCOMES[r.state],
        )
        for r in measured
    ]
    record_samples(entries)
    configured = _regions_configured(measured)
    several = [configured.get(r.spec.metric_id, 1) > 1 for r in measured]
    regional = [_reading(r, e) for r, e, s in zip(measured, entries, several, strict=True) if s]
    if regional:
        evaluate_regions(regional, metrics=metrics, configured=configured, now=now)
    single = [e for e, s in zip(entries, several, strict=True) if not s]
    evaluate_metrics(group_samples(single), metrics=metrics)
    # Last, so the breakers, which the dispatcher locks too, are held only until the commit.
    _update_breakers(measured)
    return len(ended)


def _end_runs(ended: list[RunResult], *, now: dt.datetime) -> None:
    update_rows(
        ProbeRun,
        ("state", "started_at", "finished_at", "recorded_at", "value", "detail"),
        [
            (
                r.spec.run_id,
                r.state,
                _at(r.started_at),
                _at(r.finished_at),
                now,
                None if r.value is None else float(r.value),
                r.detail[:500],
            )
            for r in ended
        ],
    )


def _regions_configured(results: list[RunResult]) -> dict[int, int]:
    """How many regions each result's metric is measured from (none listed: one place)."""
    active = active_regions()
    if len(active) < 2:
        return {}
    specs = {r.spec.probe_id: r.spec for r in results}
    placed = measuring_regions({pk: spec.kind for pk, spec in specs.items()}, active=active)
    return {specs[pk].metric_id: len(regions) for pk, regions in placed.items()}


def _reading(result: RunResult, entry: NewSample) -> RegionReading:
    return RegionReading(
        metric_id=result.spec.metric_id,
        region=result.spec.region or settings.PROBE_HOME_REGION,
        at=entry.at,
        value=entry.value,
        tick=_at(result.spec.scheduled_at),
        reachable=bool(result.extra.get("reachable", True)),
    )


def _update_breakers(results: list[RunResult]) -> None:
    """Consecutive failures per target, timeouts included; writes only breakers that change."""
    now = timezone.now()
    failing = {_breaker_of(r) for r in results if r.state in BREAKER_FAILURES}
    insert_rows(CircuitBreaker, ("target",), [(target,) for target in sorted(failing)], ignore_conflicts=True)
    targets = {_breaker_of(r) for r in results}
    breakers = CircuitBreaker.objects.select_for_update().in_bulk(targets, field_name="target")
    changed = {}
    threshold = settings.PROBE_BREAKER_FAILURES
    cooldown = dt.timedelta(seconds=settings.PROBE_BREAKER_COOLDOWN)
    for result in sorted(results, key=lambda r: r.finished_at):
        breaker = breakers.get(_breaker_of(result))
        if breaker is None:
            continue
        if result.state in BREAKER_FAILURES:
            breaker.consecutive_failures += 1
            if breaker.state == BreakerState.HALF_OPEN or breaker.consecutive_failures >= threshold:
                if breaker.state != BreakerState.OPEN:
                    breaker.opened_at = now
                breaker.state, breaker.retry_at = BreakerState.OPEN, now + cooldown
        elif breaker.consecutive_failures or breaker.state != BreakerState.CLOSED:
            breaker.consecutive_failures = 0
            breaker.state, breaker.retry_at = BreakerState.CLOSED, None
        else:
            continue
        breaker.updated_at = now
        changed[breaker.pk] = breaker
    update_many(
        CircuitBreaker,
        list(changed.values()),
        ["state", "consecutive_failures", "opened_at", "retry_at", "updated_at"],
    )


def _breaker_of(result: RunResult) -> str:
    return breaker_key(result.spec.region, result.spec.target)


class CanaryRefused(Exception):
    """A webhook the receiver will not count; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, *, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.field = field


def receive_canary(probe: Probe, *, body: bytes, signature: str, received_at: dt.datetime) -> ProbeRun:
    """Finishes a webhook round-trip run when its signed canary comes back in time.

    Refuses a bad signature (401), a body without a nonce (400), an unknown nonce (404), a
    nonce already used (409, a replay) and a canary past its deadline (410).
    """
    if not webhook.signature_is_valid(probe.webhook_secret, body, signature):
        raise CanaryRefused(401, "bad signature")
    try:
        nonce = webhook.nonce_in(body, probe.config.get("nonce_path", "nonce"))
    except (JsonTooDeep, UnstorableText) as error:
        raise CanaryRefused(400, str(error), field=error.field) from None
    except (ValueError, KeyError, IndexError, TypeError):
        raise CanaryRefused(400, "no nonce in the body") from None
    with transaction.atomic():
        run = ProbeRun.objects.select_for_update().filter(probe=probe, nonce=nonce).first()
        if run is None:
            raise CanaryRefused(404, "unknown nonce")
        if run.state != RunState.RUNNING or run.triggered_at is None:
            raise CanaryRefused(409, "this nonce was already used")
        if received_at > run.deadline:
            raise CanaryRefused(410, "the canary came back after its deadline")
        delay = (received_at - run.triggered_at).total_seconds()
        result = RunResult(
            spec=run_specs(ProbeRun.objects.filter(pk=run.pk))[0],
            state=RunState.OK,
            started_at=run.triggered_at.timestamp(),
            finished_at=received_at.timestamp(),
            value=elapsed_in_unit(delay, probe.metric.unit),
            detail="canary received",
        )
        record_run_results([result])
    run.refresh_from_db()
    return run


@transaction.atomic
def push_samples(probe: Probe, *, body: bytes, received_at: dt.datetime | None = None) -> int:
    """Stores pushed values after validating every one of them (push.BadPush otherwise)."""
    received_at = received_at or timezone.now()
    metric = probe.metric
    pairs = push.parse_body(body, received_at=received_at)
    entries = [NewSample(metric, value, at, Outcome.OK) for value, at in pairs]
    record_samples(entries)
    evaluate_metrics(group_samples(entries), metrics={metric.pk: metric})
    return len(entries)
