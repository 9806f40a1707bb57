"""Probes measured from several regions: what each region receives, what the centre accepts from
it, and the component status decided by a quorum of the regions, tick by tick."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.models import (
    AuditEvent,
    ComponentStatus,
    ComponentStatusChange,
    MetricHealth,
    ProbeRegion,
    ProbeRun,
    RegionHealth,
    RunState,
)
from incidents.probes import regional
from incidents.probes.base import RunResult
from incidents.probes.sealing import BadSeal, seal, signed_body, unseal
from incidents.services.probes import dispatch_due_runs
from incidents.services.regional_results import store_region_results
from incidents.services.regions import key_of

INTERVAL = 10


@pytest.fixture
def regions(db):
    ProbeRegion.objects.filter(name="local").update(active=False)
    return {name: ProbeRegion.objects.create(name=name) for name in ("eu-north", "us-east", "ap-south")}


@pytest.fixture
def probe(make_probe, make_metric, automatic_component, regions):
    metric = make_metric(automatic_component, aggregation="latest")
    return make_probe(url="http://127.0.0.1:8401/ok", interval=INTERVAL, timeout=3, metric=metric)


def signed(region: ProbeRegion, rows: list[dict]) -> tuple[str, str]:
    return signed_body(region.name, rows, key=key_of(region))


def row_for(spec, *, ok: bool, value: float = 20.0) -> dict:
    return {
        "run_id": spec["run_id"], "state": "ok" if ok else "failed", "value": value if ok else None,
        "started_at": spec["scheduled_at"], "finished_at": spec["scheduled_at"] + 0.05, "detail": "",
        "reachable": True,
    }  # fmt: skip


def tick(regions: dict, at: dt.datetime, answers: dict[str, bool | None]) -> dt.datetime:
    """One tick at `at`: dispatch, then each region answers ok (True), failing (False) or not at
    all (None, a region cut off). Returns the tick's scheduled time."""
    with time_machine.travel(at, tick=False):
        due = dispatch_due_runs(now=at)
        for region, specs in due.remote.items():
            ok = answers.get(region.name)
            if ok is not None:
                store_region_results(region.name, *signed(region, [row_for(s, ok=ok) for s in specs]))
    [scheduled] = {spec["scheduled_at"] for specs in due.remote.values() for spec in specs}
    return dt.datetime.fromtimestamp(scheduled, tz=dt.UTC)


def test_a_probe_gets_one_run_per_active_region_sent_sealed_to_that_region(probe, regions):
    due = dispatch_due_runs()
    assert due.home == []
    assert {r.name for r in due.remote} == set(regions)
    runs = ProbeRun.objects.filter(probe=probe)
    assert sorted(runs.values_list("region", flat=True)) == sorted(regions)
    assert set(runs.values_list("state", flat=True)) == {RunState.RUNNING}


def test_a_probe_given_regions_runs_only_there(probe, regions):
    probe.regions.set([regions["eu-north"]])
    due = dispatch_due_runs()
    assert [r.name for r in due.remote] == ["eu-north"]


def test_one_region_cannot_open_runs_sealed_for_another(regions):
    sealed = seal({"runs": [], "reference_url": ""}, key=key_of(regions["eu-north"]))
    with pytest.raises(BadSeal):
        unseal(sealed, key=key_of(regions["us-east"]))
    assert unseal(sealed, key=key_of(regions["eu-north"])) == {"runs": [], "reference_url": ""}


def test_a_region_worker_opens_its_runs_with_its_key_and_signs_its_results(probe, regions, settings):
    due = dispatch_due_runs()
    specs = due.remote[regions["eu-north"]]
    settings.PROBE_REGION, settings.PROBE_REGION_KEY = "eu-north", key_of(regions["eu-north"])
    opened, _url = regional.opened_runs(seal({"runs": specs}, key=settings.PROBE_REGION_KEY))
    assert [s.run_id for s in opened] == [specs[0]["run_id"]]
    now = timezone.now().timestamp()
    body, signature = regional.result_message(
        [RunResult(opened[0], RunState.OK, now, now + 0.1, 42.0)], reachable=True
    )
    assert store_region_results("eu-north", body, signature) == 1
    run = ProbeRun.objects.get(pk=specs[0]["run_id"])
    assert (run.state, run.value) == (RunState.OK, 42.0)
    assert RegionHealth.objects.get(region="eu-north").latest == 42.0


def test_results_signed_by_one_region_for_another_regions_runs_are_refused(probe, regions):
    due = dispatch_due_runs()
    theirs = due.remote[regions["us-east"]][0]
    # Signed with eu-north's own key, naming us-east's run: not a run sent to eu-north.
    assert store_region_results("eu-north", *signed(regions["eu-north"], [row_for(theirs, ok=False)])) == 0
    # Naming us-east but signed with eu-north's key: a forgery.
    body, _sig = signed(regions["us-east"], [row_for(theirs, ok=False)])
    forged = signed_body("us-east", [row_for(theirs, ok=False)], key=key_of(regions["eu-north"]))[1]
    assert store_region_results("us-east", body, forged) == 0
    assert ProbeRun.objects.get(pk=theirs["run_id"]).state == RunState.RUNNING


def test_a_rotated_key_refuses_results_signed_with_the_old_one(probe, regions):
    from incidents.services.regions import rotate_region_key

    due = dispatch_due_runs()
    region = regions["eu-north"]
    old = signed(region, [row_for(due.remote[region][0], ok=True)])
    rotate_region_key(region, actor=None)
    assert store_region_results("eu-north", *old) == 0


def status_of(probe) -> str:
    probe.metric.component.refresh_from_db()
    return probe.metric.component.status


def test_quorum_a_cut_off_region_changes_nothing_two_failing_do_and_recovery_waits(probe, regions, settings):
    settings.PROBE_QUORUM_RECOVERY_TICKS = 3
    start = timezone.now().replace(microsecond=0)
    at = [start + dt.timedelta(seconds=INTERVAL * n) for n in range(12)]
    all_ok = {"eu-north": True, "us-east": True, "ap-south": True}
    tick(regions, at[0], all_ok)
    tick(regions, at[1], all_ok)
    assert status_of(probe) == ComponentStatus.OPERATIONAL

    # ap-south is cut off: it sends nothing, and after two ticks it no longer counts.
    for n in (2, 3, 4):
        tick(regions, at[n], {"eu-north": True, "us-east": True, "ap-south": None})
    assert status_of(probe) == ComponentStatus.OPERATIONAL
    health = MetricHealth.objects.get(metric=probe.metric)
    assert health.regions_reporting == 2

    # One region failing alone, while ap-south is back: still operational.
    first_failing = tick(regions, at[5], {"eu-north": False, "us-east": True, "ap-south": True})
    assert status_of(probe) == ComponentStatus.OPERATIONAL
    # A second region fails: the quorum is reached, dated from the first failing tick.
    tick(regions, at[6], {"eu-north": False, "us-east": False, "ap-south": True})
    assert status_of(probe) == ComponentStatus.MAJOR_OUTAGE
    change = ComponentStatusChange.objects.filter(component=probe.metric.component).first()
    assert change.created_at == first_failing
    reason = AuditEvent.objects.filter(action="component.status_changed").latest("at").after["reason"]
    assert reason.startswith("2 of 3 regions, ")
    assert "= failed → Major outage" in reason

    # The target works again: recovery only after three good ticks in a row.
    first_good = tick(regions, at[7], all_ok)
    assert status_of(probe) == ComponentStatus.MAJOR_OUTAGE
    tick(regions, at[8], all_ok)
    assert status_of(probe) == ComponentStatus.MAJOR_OUTAGE
    tick(regions, at[9], all_ok)
    assert status_of(probe) == ComponentStatus.OPERATIONAL
    recovery = ComponentStatusChange.objects.filter(component=probe.metric.component).first()
    assert recovery.created_at == first_good


def test_a_region_whose_own_reachability_check_fails_counts_as_no_data(probe, regions):
    start = timezone.now().replace(microsecond=0)
    with time_machine.travel(start, tick=False):
        due = dispatch_due_runs(now=start)
        for region, specs in due.remote.items():
            rows = [
                row_for(s, ok=region.name == "us-east") | {"reachable": region.name != "eu-north"}
                for s in specs
            ]
            store_region_results(region.name, *signed(region, rows))
    # eu-north failed but cannot reach its own reference: only us-east (ok) and ap-south
    # (failing) report, and no two of them reach an outage: the component stays operational.
    assert status_of(probe) == ComponentStatus.OPERATIONAL
    health = MetricHealth.objects.get(metric=probe.metric)
    assert (health.regions_reporting, health.regions_agreeing) == (2, 1)
    assert RegionHealth.objects.get(region="eu-north").reachable is False


def test_a_region_cannot_store_a_number_that_is_not_one(probe, regions):
    due = dispatch_due_runs()
    region = regions["eu-north"]
    [spec] = due.remote[region]
    for bad in ({"value": float("nan")}, {"value": float("inf")}, {"finished_at": float("nan")}):
        assert store_region_results("eu-north", *signed(region, [row_for(spec, ok=True) | bad])) == 0
    assert ProbeRun.objects.get(pk=spec["run_id"]).state == RunState.RUNNING
    assert store_region_results("eu-north", *signed(region, [row_for(spec, ok=True)])) == 1
