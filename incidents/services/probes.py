"""Probes: saving them, dispatching due runs, claiming them, and sweeping abandoned ones."""

import datetime as dt
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import (
    ACTIVE_RUN_STATES,
    BreakerState,
    CircuitBreaker,
    Probe,
    ProbeKind,
    ProbeRegion,
    ProbeRun,
    RunState,
    Sample,
    Subject,
)
from incidents.models.api_tokens import token_digest
from incidents.outbound.guard import check_host_addresses, check_url_shape
from incidents.probes import kind_module
from incidents.probes.base import RunSpec, host_of, target_of
from incidents.security.masking import (
    carries_masked_values,
    masked_probe_fields,
    unmasked_config,
    unmasked_url,
    url_carries_masked_values,
)
from incidents.services.bulk import update_many

from .audit import record_changes, record_event
from .regions import measuring_regions

PROBE_FIELDS = ("name", "kind", "metric_id", "enabled", "url", "config", "interval", "timeout")
PROBE_FIELDS += ("connect_timeout", "read_timeout")


def validate_probe(probe: Probe) -> None:
    """Puts the stored credentials back wherever their masks were sent (settings, URL), as read
    from the editor, the API or the admin, refusing a mask that matches nothing stored; then the
    kind's own checks, and timeouts and interval within the configured bounds."""
    stored_url, stored_config = (
        Probe.objects.filter(pk=probe.pk).values_list("url", "config").first() if probe.pk else None
    ) or (None, {})
    probe.config = unmasked_config(probe.config, stored_config)
    probe.url = unmasked_url(probe.url, stored_url or "")
    message = _("A masked value matches no stored credential: send the credential itself.")
    errors = {}
    if carries_masked_values(probe.config):
        errors["config"] = message
    if url_carries_masked_values(probe.url):
        errors["url"] = message
    if errors:
        raise ValidationError(errors)
    low, high = settings.PROBE_MIN_INTERVAL, settings.PROBE_MAX_INTERVAL
    if not low <= probe.interval <= high:
        errors["interval"] = _("The interval must be between %(low)s and %(high)s seconds.") % {
            "low": low,
            "high": high,
        }
    top = settings.PROBE_MAX_TIMEOUT
    for name in ("connect_timeout", "read_timeout", "timeout"):
        value = getattr(probe, name)
        if not 0.1 <= value <= top:
            errors[name] = _("A timeout must be between 0.1 and %(top)s seconds.") % {"top": top}
    if probe.kind != ProbeKind.PUSH and probe.timeout >= probe.interval:
        errors.setdefault("timeout", _("The run's timeout must be shorter than its interval."))
    if errors:
        raise ValidationError(errors)
    kind_module(probe.kind).validate(probe)
    if probe.url and probe.url != stored_url:
        # Only a new or changed URL has its shape and address judged, so a probe whose host has
        # since moved somewhere refused (or saved before a rule was added) can still be edited
        # or disabled; the HTTP client refuses that address at every run.
        try:
            check_host_addresses(check_url_shape(probe.url), explain=True)
        except ValidationError as error:
            raise ValidationError({"url": error.messages}) from None


def _record(probe: Probe, action: str, *, actor: AbstractBaseUser | None, **changes) -> None:
    record_event(
        actor=actor,
        action=action,
        subject_type=Subject.PROBE,
        subject_id=probe.pk,
        subject_label=str(probe),
        **changes,
    )


def _audited(probe: Probe, regions: list[str]) -> dict:
    """The probe's audited fields, with its header values, credentials and URL query values
    masked, and the names of the regions it was given."""
    return {**masked_probe_fields({f: getattr(probe, f) for f in PROBE_FIELDS}), "regions": regions}


def _region_names(probe: Probe) -> list[str]:
    return sorted(probe.regions.values_list("name", flat=True)) if probe.pk else []


@transaction.atomic
def save_probe(
    probe: Probe, *, actor: AbstractBaseUser | None, regions: Iterable[ProbeRegion] | None = None
) -> Probe:
    """Creates or edits a probe after validating it, and records what changed. `regions`: where
    it runs from (empty: every active region); None leaves them as they are."""
    probe.full_clean(exclude=["url"])
    validate_probe(probe)
    creating = probe.pk is None
    before_regions = _region_names(probe)
    before = {} if creating else _audited(Probe.objects.get(pk=probe.pk), before_regions)
    if probe.kind == ProbeKind.WEBHOOK and not probe.webhook_secret:
        probe.webhook_secret = secrets.token_hex(32)
    if probe.is_scheduled and (creating or probe.next_run_at is None):
        # Spread first runs over one interval so probes created together do not run together.
        probe.next_run_at = timezone.now() + dt.timedelta(seconds=random.uniform(0, probe.interval))
    probe.updated_at = timezone.now()
    probe.save()
    if regions is not None:
        probe.regions.set(regions)
    record_changes(
        probe,
        actor=actor,
        action="probe.created" if creating else "probe.changed",
        subject_type=Subject.PROBE,
        before=before,
        after=_audited(probe, _region_names(probe) if regions is not None else before_regions),
    )
    return probe


def _lock(probe: Probe) -> None:
    """Holds the probe's row until the transaction ends, so two writes to it take turns."""
    Probe.objects.select_for_update().only("pk").get(pk=probe.pk)


@transaction.atomic
def issue_push_token(probe: Probe, *, actor: AbstractBaseUser | None) -> str:
    """A new push token for the probe; only its hash is kept, so show it once."""
    _lock(probe)
    token = secrets.token_urlsafe(32)
    probe.push_token_hash = token_digest(token)
    Probe.objects.filter(pk=probe.pk).update(push_token_hash=probe.push_token_hash)
    _record(probe, "probe.token_issued", actor=actor)
    return token


@transaction.atomic
def rotate_webhook_secret(probe: Probe, *, actor: AbstractBaseUser | None) -> str:
    """A new signing secret for a webhook probe; the old one stops working at once."""
    _lock(probe)
    probe.webhook_secret = secrets.token_hex(32)
    Probe.objects.filter(pk=probe.pk).update(webhook_secret=probe.webhook_secret)
    _record(probe, "probe.secret_rotated", actor=actor)
    return probe.webhook_secret


def _grace(timeout: float) -> float:
    """Time past the deadline before the watchdog calls a run abandoned.

    The watchdog sweeps every PROBE_DISPATCH_EVERY seconds, so this keeps "marked abandoned
    within twice the deadline" for timeouts of at least that plus one second.
    """
    return max(0.5, min(2.0, timeout - settings.PROBE_DISPATCH_EVERY - 0.5))


@dataclass
class DueRuns:
    """What one dispatch created: run ids for the home region's workers, which claim them in the
    database, and for every other region its runs as plain specs, to be sealed with its key."""

    home: list[int] = field(default_factory=list)
    remote: dict[ProbeRegion, list[dict]] = field(default_factory=dict)


def breaker_key(region: str, target: str) -> str:
    """Each region counts its own failures: one region's broken network opens no other's circuit."""
    return target if region in ("", settings.PROBE_HOME_REGION) else f"{region} {target}"[:500]


def dispatch_due_probes(*, now: dt.datetime | None = None, limit: int = 5000) -> list[int]:
    """The home region's share of `dispatch_due_runs`."""
    return dispatch_due_runs(now=now, limit=limit).home


def dispatch_due_runs(*, now: dt.datetime | None = None, limit: int = 5000) -> DueRuns:
    """Creates runs for probes due before the next dispatch, one per region the probe runs in.

    Runs are rows first: the caller sends the Celery messages after this commits. A run for a
    target whose circuit is open is created as `skipped`; when the cool-down is over one run
    goes through with the breaker half open. A run sent to another region is marked running at
    once (that region's workers cannot claim it in the database); the watchdog ends it if no
    result comes back.
    """
    now = now or timezone.now()
    horizon = now + dt.timedelta(seconds=2 * settings.PROBE_DISPATCH_EVERY)
    due = DueRuns()
    with transaction.atomic():
        probes = list(
            Probe.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("metric")
            .filter(enabled=True, next_run_at__lte=horizon)
            .exclude(kind=ProbeKind.PUSH)
            .order_by("next_run_at")[:limit]
        )
        if not probes:
            return due
        placed = _placed_runs(probes)
        breakers = CircuitBreaker.objects.select_for_update().in_bulk(
            {breaker_key(region.name, target_of(p.url)) for p, region in placed}, field_name="target"
        )
        runs: list[tuple[ProbeRun, ProbeRegion]] = []
        trying = []
        scheduled_at = {probe.pk: _scheduled(probe, now=now) for probe in probes}
        for probe, region in placed:
            scheduled = scheduled_at[probe.pk]
            # The deadline counts from when the run can start: a late dispatch (the scheduler
            # was down) shows as lateness, not as a run with no time left.
            deadline = max(scheduled, now) + dt.timedelta(seconds=probe.timeout)
            run = ProbeRun(
                probe=probe,
                region=region.name,
                scheduled_at=scheduled,
                deadline=deadline,
                abandon_after=deadline + dt.timedelta(seconds=_grace(probe.timeout)),
                nonce=secrets.token_urlsafe(24) if probe.kind == ProbeKind.WEBHOOK else None,
            )
            breaker = breakers.get(breaker_key(region.name, target_of(probe.url)))
            if breaker and breaker.state != BreakerState.CLOSED:
                if breaker.retry_at and breaker.retry_at <= scheduled:
                    # Cool-down over (or the last trial never finished): let one run through.
                    breaker.state = BreakerState.HALF_OPEN
                    breaker.retry_at = now + dt.timedelta(seconds=settings.PROBE_BREAKER_COOLDOWN)
                    trying.append(breaker)
                else:
                    run.state, run.detail = RunState.SKIPPED, f"circuit {breaker.state.replace('_', ' ')}"
                    run.started_at = run.finished_at = scheduled
            if run.state == RunState.PENDING and not region.is_home:
                run.state, run.worker = RunState.RUNNING, f"region {region.name}"
            runs.append((run, region))
        for probe in probes:
            probe.next_run_at = scheduled_at[probe.pk] + dt.timedelta(seconds=probe.interval)
        ProbeRun.objects.bulk_create([run for run, _region in runs])
        update_many(Probe, probes, ["next_run_at"])
        for breaker in trying:
            breaker.updated_at = now
        update_many(CircuitBreaker, trying, ["state", "retry_at", "updated_at"])
    for run, region in runs:
        if run.state == RunState.PENDING:
            due.home.append(run.pk)
        elif run.state == RunState.RUNNING:
            due.remote.setdefault(region, []).append(_remote_spec(run))
    return due


def _scheduled(probe: Probe, *, now: dt.datetime) -> dt.datetime:
    """When the probe's run is due; far behind (the system was down), now: missed runs are not replayed."""
    if probe.next_run_at < now - dt.timedelta(seconds=probe.interval):
        return now
    return probe.next_run_at


def _placed_runs(probes: list[Probe]) -> list[tuple[Probe, ProbeRegion]]:
    """(probe, region) for every region each probe is measured from."""
    by_probe = measuring_regions({probe.pk: probe.kind for probe in probes})
    return [(probe, region) for probe in probes for region in by_probe[probe.pk]]


def _remote_spec(run: ProbeRun) -> dict:
    """A run as the region's worker needs it, without the database: the same fields as RunSpec."""
    probe = run.probe
    return {
        "run_id": run.pk, "probe_id": probe.pk, "metric_id": probe.metric_id, "kind": probe.kind,
        "url": probe.url, "config": probe.config, "unit": probe.metric.unit,
        "connect_timeout": probe.connect_timeout, "read_timeout": probe.read_timeout,
        "timeout": probe.timeout, "scheduled_at": run.scheduled_at.timestamp(),
        "deadline": run.deadline.timestamp(), "abandon_after": run.abandon_after.timestamp(),
        "public_id": probe.public_id, "region": run.region,
    }  # fmt: skip


def claim_runs(run_ids: list[int], *, worker: str) -> list[RunSpec]:
    """Takes pending runs for this worker with a conditional update, so a redelivered message
    claims nothing; returns them as plain values for the event loop."""
    claim = f"{worker}/{secrets.token_hex(4)}"[:120]
    claimed = ProbeRun.objects.filter(pk__in=run_ids, state=RunState.PENDING).update(
        state=RunState.RUNNING, worker=claim
    )
    if not claimed:
        return []
    return run_specs(ProbeRun.objects.filter(pk__in=run_ids, worker=claim))


def run_specs(runs: QuerySet[ProbeRun]) -> list[RunSpec]:
    # Plain rows rather than three model instances per run: this runs for every probe run.
    rows = runs.values_list(*CLAIM_COLUMNS.values())
    return [_spec_of_row(dict(zip(CLAIM_COLUMNS, row, strict=True))) for row in rows]


# RunSpec's fields and the columns they are read from.
CLAIM_COLUMNS = {
    "run_id": "pk", "scheduled_at": "scheduled_at", "deadline": "deadline",
    "abandon_after": "abandon_after", "nonce": "nonce", "probe_id": "probe_id",
    "metric_id": "probe__metric_id", "kind": "probe__kind", "url": "probe__url",
    "config": "probe__config", "unit": "probe__metric__unit",
    "connect_timeout": "probe__connect_timeout", "read_timeout": "probe__read_timeout",
    "timeout": "probe__timeout", "webhook_secret": "probe__webhook_secret",
    "public_id": "probe__public_id", "region": "region",
}  # fmt: skip


def _spec_of_row(row: dict) -> RunSpec:
    for name in ("scheduled_at", "deadline", "abandon_after"):
        row[name] = row[name].timestamp()
    return RunSpec(**row, target=target_of(row["url"]), host=host_of(row["url"]))


def mark_triggered(run_id: int, *, at: dt.datetime) -> bool:
    """Records when a webhook canary is sent, before it is sent, so the receipt can be timed."""
    return bool(ProbeRun.objects.filter(pk=run_id, state=RunState.RUNNING).update(triggered_at=at))


@transaction.atomic  # FOR UPDATE needs one, even in a subquery
def sweep_abandoned_runs(*, now: dt.datetime | None = None) -> int:
    """The watchdog: active runs past their abandon time (a killed worker, a lost message) end as errors.

    A run whose row a result writer holds is being stored at this moment: the sweep skips it
    rather than wait for that batch (the next sweep ends it if the batch failed), so the
    dispatcher, which shares the watchdog's worker, never waits behind the result writer."""
    now = now or timezone.now()
    overdue = ProbeRun.objects.select_for_update(skip_locked=True).filter(
        state__in=ACTIVE_RUN_STATES, abandon_after__lt=now
    )
    return ProbeRun.objects.filter(pk__in=overdue.order_by().values("pk")).update(
        state=RunState.ERROR, finished_at=now, detail="abandoned: no worker finished it by its deadline"
    )


def prune_old_data(*, now: dt.datetime | None = None, chunk: int = 5000) -> dict[str, int]:
    """Deletes raw samples and probe runs older than their retention; rollups are kept.

    Imported samples are kept: a re-import of the same window finds them and counts nothing twice.
    """
    now = now or timezone.now()
    deleted = {"samples": 0, "runs": 0}
    for key, objects, column, days in (
        ("samples", Sample.objects.filter(imported=False), "at", settings.SAMPLE_RETENTION_DAYS),
        ("runs", ProbeRun.objects.all(), "scheduled_at", settings.PROBE_RUN_RETENTION_DAYS),
    ):
        cutoff = now - dt.timedelta(days=days)
        while True:
            ids = list(objects.filter(**{f"{column}__lt": cutoff}).values_list("pk", flat=True)[:chunk])
            if not ids:
                break
            deleted[key] += objects.model.objects.filter(pk__in=ids).delete()[0]
    return deleted


@transaction.atomic
def delete_probe(probe: Probe, *, actor: AbstractBaseUser | None) -> None:
    """Deletes a probe with its runs; its metric and samples stay."""
    _lock(probe)
    _record(probe, "probe.deleted", actor=actor, before=_audited(probe, _region_names(probe)))
    probe.delete()
