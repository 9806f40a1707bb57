"""The probe regions drill (scripts/drill_regions.py, `make drill-regions`), shortened to probes
every 3 s: three regions in network namespaces of their own, each with a worker that reaches only
the broker, and the centre deciding status by quorum. One region cut off changes no status and
counts as no data after its missed ticks; two regions failing take the components down, dated
from the first failing tick; recovery waits for the recovery ticks.

Needs root (network namespaces), redis-server and PostgreSQL's server programs; skips without
them, and fails instead under REQUIRE_SERVICES=1."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES

pytestmark = pytest.mark.system

SCRIPT = Path(__file__).resolve().parent.parent.parent / "scripts" / "drill_regions.py"


def run_drill() -> tuple[dict[str, str], list[str], str]:
    """The drill's last line as fields, its check lines, and all it printed."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "DRILL_REGIONS_INTERVAL": "3", "REQUIRE_SERVICES": ""},
        capture_output=True,
        text=True,
        timeout=240,
    )
    printed = done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    last = lines[-1] if lines else ""
    if "skipped:" in last:
        reason = last.split("skipped:", 1)[1].strip()
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but the regions drill cannot run here: {reason}")
        pytest.skip(reason)
    assert last.startswith("drill=regions "), printed
    fields = dict(field.split("=", 1) for field in last.split()[1:] if "=" in field)
    return fields, [line for line in lines if line.startswith("check=")], printed


def test_quorum_ignores_a_region_cut_off_and_follows_two_failing_regions_down_and_back():
    fields, checks, printed = run_drill()
    # Cut off: no status changes, and the region counts as no data after its two missed ticks.
    assert fields["blackhole_changes"] == "0", printed
    assert fields["no_data_after_ticks"] == "2", printed
    # Two of three regions failing: down at the first tick they fail, dated from it.
    assert fields["down_after_ticks"] == "1", printed
    assert fields["dated_from_first_tick"] == "yes", printed
    # Restored: operational after PROBE_QUORUM_RECOVERY_TICKS (3) good ticks, not earlier.
    assert fields["recovered_after_ticks"] == "3", printed
    assert [line.split()[0] for line in checks] == [
        "check=healthy",
        "check=blackhole",
        "check=region-back",
        "check=broken",
        "check=restored",
    ]
    assert all(line.endswith(" ok") for line in checks), printed
    assert fields["goal"] == "met", printed
