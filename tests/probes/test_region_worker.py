"""A region's worker holds the broker and its region's key, nothing else: it runs the runs the
centre sealed for its region, and the centre stores what it measured (Redis, beat, a probes
worker at the centre and one in the region, as deployed)."""

import pytest

from incidents.models import MetricHealth, ProbeRegion, ProbeRun, RegionHealth, RunState
from incidents.services.regions import key_of, save_region

from .conftest import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.system, pytest.mark.django_db(transaction=True)]


def test_a_region_worker_without_a_database_runs_its_probes_and_the_centre_stores_them(
    probe_system, make_probe, targets
):
    ProbeRegion.objects.get_or_create(name="local")  # the home region: a flush removed the migration's row
    region = save_region(ProbeRegion(name="eu-north"), actor=None)
    probe = make_probe(url=targets.url("/ok"), interval=2, timeout=1.5, name="from two regions")
    probe_system.start_worker()
    probe_system.start_region_worker(region.name, key_of(region))
    probe_system.start_beat()

    def measured_in_the_region():
        return list(ProbeRun.objects.filter(probe=probe, region="eu-north", state=RunState.OK))

    runs = wait_for(measured_in_the_region, seconds=30, message="a run measured in eu-north")
    assert runs[0].detail == "HTTP 200" and runs[0].value > 0
    assert runs[0].worker == "region eu-north"
    wait_for(lambda: ProbeRun.objects.filter(probe=probe, region="local", state=RunState.OK), seconds=10)
    regional = RegionHealth.objects.get(metric=probe.metric, region="eu-north")
    assert regional.tick_at is not None and regional.latest is not None
    wait_for(lambda: MetricHealth.objects.get(metric=probe.metric).regions_reporting == 2, seconds=10)
    assert "Traceback" not in probe_system.logs()
