"""Storing results that a region's workers sent through the broker.

A batch is stored only when it is signed with the key of the region it names, and only for runs
the centre sent to that region and that are still running: a region can neither forge another
region's results nor end runs that are not its own.
"""

import logging
import math

from incidents.models import ProbeRun, RunState
from incidents.probes.base import RunResult
from incidents.probes.sealing import BadSeal, verified_results

from .probe_results import record_run_results
from .probes import run_specs
from .regions import forget_regions, key_of, region_named

logger = logging.getLogger(__name__)

STATES = {RunState.OK, RunState.FAILED, RunState.TIMEOUT, RunState.ERROR}


def store_region_results(region_name: str, body: str, signature: str) -> int:
    """Verifies and stores one signed batch; returns how many runs it ended (0 when refused)."""
    results = verified_region_results(region_name, body, signature)
    return record_run_results(results) if results else 0


def verified_region_results(region_name: str, body: str, signature: str) -> list[RunResult]:
    """The results of one signed batch for runs sent to that region and still running, as the
    result writer stores them; none when the region or its signature is not known."""
    region = region_named(region_name)
    if region is None or region.is_home:
        logger.warning("probe results from unknown region %r refused", region_name)
        return []
    try:
        rows = verified_results(region.name, body, signature, key=key_of(region))
    except (BadSeal, ValueError, TypeError) as error:
        logger.warning("probe results from region %s refused: %s", region.name, error)
        forget_regions()  # a key rotated since the region was read counts at once
        return []
    by_id = {}
    for row in rows:
        try:
            by_id[int(row["run_id"])] = row
        except (KeyError, TypeError, ValueError):
            continue
    specs = run_specs(ProbeRun.objects.filter(pk__in=by_id, region=region.name, state=RunState.RUNNING))
    return [result for spec in specs if (result := _result(spec, by_id[spec.run_id])) is not None]


def _result(spec, row: dict) -> RunResult | None:
    try:
        state = RunState(row["state"])
        if state not in STATES:
            return None
        value = _finite(row.get("value"))
        finished = _finite(row["finished_at"])
        if finished is None or (value is None and state == RunState.OK):
            return None  # JSON allows NaN and Infinity; no number of ours is either
        extra = {"reachable": bool(row.get("reachable", True))}
        if (sampled := _finite(row.get("sampled_at"))) is not None:
            extra["sampled_at"] = sampled
        return RunResult(
            spec,
            state,
            _finite(row.get("started_at")),
            finished,
            value,
            str(row.get("detail", ""))[:500],
            extra,
        )
    except (KeyError, TypeError, ValueError):
        return None


def _finite(number) -> float | None:
    """A number as a float; None for none, NaN or an infinity."""
    if number is None:
        return None
    value = float(number)  # TypeError or ValueError for what is not a number
    return value if math.isfinite(value) else None
