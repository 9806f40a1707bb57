"""Rollups kept up to date in batches match a brute-force computation; old data is pruned."""

import datetime as dt
import random

import pytest
from django.utils import timezone

from incidents.metrics import rollups
from incidents.models import Outcome, ProbeRun, Resolution, Rollup, RunState, Sample
from incidents.services.metrics import NewSample, bucket_start, record_sample, record_samples
from incidents.services.probes import prune_old_data


def test_batched_rollups_match_a_brute_force_computation(make_metric, automatic_component):
    metric = make_metric(automatic_component)
    rng = random.Random(4)
    start = dt.datetime(2026, 3, 4, 22, 50, tzinfo=dt.UTC)
    entries = []
    for _ in range(1500):
        at = start + dt.timedelta(seconds=rng.uniform(0, 3 * 3600))
        failed = rng.random() < 0.05
        value = None if failed else rng.lognormvariate(4, 1.2)
        entries.append(NewSample(metric, value, at, Outcome.TIMEOUT if failed else Outcome.OK))
    # Out of order, in uneven batches, plus single samples, as workers and pushes deliver them.
    rng.shuffle(entries)
    position = 0
    while position < len(entries):
        size = rng.choice([1, 7, 50, 200])
        batch = entries[position : position + size]
        if size == 1:
            record_sample(metric, value=batch[0].value, at=batch[0].at, outcome=batch[0].outcome)
        else:
            record_samples(batch)
        position += size

    for resolution in Resolution:
        buckets: dict[dt.datetime, list] = {}
        for entry in entries:
            buckets.setdefault(bucket_start(entry.at, resolution), []).append(entry.value)
        stored = {r.bucket_start: r for r in Rollup.objects.filter(metric=metric, resolution=resolution)}
        assert set(stored) == set(buckets)
        for start_at, values in buckets.items():
            rollup, measured = stored[start_at], [v for v in values if v is not None]
            assert rollup.count == len(values)
            assert rollup.failures == len(values) - len(measured)
            if not measured:
                assert rollup.p95 is None
                continue
            assert rollup.minimum == pytest.approx(min(measured))
            assert rollup.maximum == pytest.approx(max(measured))
            assert rollup.total == pytest.approx(sum(measured))
            exact = rollups.exact_quantile(measured, 0.95)
            assert rollup.p95 == pytest.approx(exact, rel=rollups.RELATIVE_ACCURACY * 1.01)
    metric.refresh_from_db()
    newest = max(entries, key=lambda e: e.at)
    assert metric.latest_at == newest.at
    assert metric.latest_value == newest.value


def test_a_minute_of_one_sample_reads_that_sample_as_its_p95(make_metric, automatic_component):
    metric = make_metric(automatic_component)
    at = dt.datetime(2026, 3, 4, 22, 50, 10, tzinfo=dt.UTC)

    record_sample(metric, value=76.8, at=at, outcome=Outcome.OK)

    minute = Rollup.objects.get(metric=metric, resolution=Resolution.MINUTE)
    assert minute.p95 == 76.8  # what the live value says, not its sketch bucket's 77.5


def test_an_invalid_value_in_a_batch_stores_nothing(make_metric, automatic_component):
    metric = make_metric(automatic_component)
    now = timezone.now()
    with pytest.raises(Exception, match="finite"):
        record_samples([NewSample(metric, 5.0, now), NewSample(metric, float("nan"), now)])
    assert not Sample.objects.exists() and not Rollup.objects.exists()


def test_pruning_removes_raw_samples_and_runs_past_retention_but_keeps_rollups(
    settings, make_probe, automatic_component
):
    settings.SAMPLE_RETENTION_DAYS = 30
    settings.PROBE_RUN_RETENTION_DAYS = 7
    probe = make_probe(url="http://127.0.0.1:8401/ok")
    now = timezone.now()
    for days, run_days in ((40, 10), (31, 8), (29, 6), (1, 1)):
        record_sample(probe.metric, value=10.0, at=now - dt.timedelta(days=days))
        ProbeRun.objects.create(
            probe=probe,
            state=RunState.OK,
            scheduled_at=now - dt.timedelta(days=run_days),
            deadline=now,
            abandon_after=now,
        )
    rollups_before = Rollup.objects.count()

    deleted = prune_old_data(now=now, chunk=1)

    assert deleted == {"samples": 2, "runs": 2}
    ages = sorted((now - at).days for at in Sample.objects.values_list("at", flat=True))
    assert ages == [1, 29]
    assert all(now - r.scheduled_at < dt.timedelta(days=7) for r in ProbeRun.objects.all())
    assert Rollup.objects.count() == rollups_before
