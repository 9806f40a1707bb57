"""A region's worker that cannot open the runs sent to it says why in its log: at the centre those
runs only end as abandoned."""

from incidents.probes.sealing import region_key, seal
from incidents.tasks.probes import run_sealed


def test_runs_sealed_with_a_rotated_key_are_refused_with_a_warning(settings, caplog):
    settings.PROBE_REGION, settings.PROBE_REGION_KEY = "eu-north", region_key("eu-north", 1)
    sealed = seal({"runs": [], "reference_url": ""}, key=region_key("eu-north", 2))
    assert run_sealed("eu-north", sealed) == 0
    assert "runs for region eu-north refused: not sealed with this worker's PROBE_REGION_KEY" in caplog.text


def test_runs_for_another_region_are_dropped_with_a_warning(settings, caplog):
    settings.PROBE_REGION, settings.PROBE_REGION_KEY = "eu-north", region_key("eu-north", 1)
    sealed = seal({"runs": [], "reference_url": ""}, key=region_key("us-east", 1))
    assert run_sealed("us-east", sealed) == 0
    assert "runs for region us-east dropped: this worker is region 'eu-north'" in caplog.text
