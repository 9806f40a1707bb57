"""A region's worker side of the broker: opening the runs sent to it, and sending results back.

Runs on a worker started with PROBE_REGION and PROBE_REGION_KEY, which has no database.
"""

import logging

from django.conf import settings

from .base import RunResult, RunSpec, spec_of_dict
from .sealing import signed_body, unseal

logger = logging.getLogger(__name__)


def opened_runs(token: str) -> tuple[list[RunSpec], str]:
    """The runs in a sealed batch and the region's reachability URL; BadSeal when the batch was
    not sealed with this worker's key."""
    payload = unseal(token, key=settings.PROBE_REGION_KEY)
    specs = [spec_of_dict(values) for values in payload["runs"]]
    return [s for s in specs if s.region == settings.PROBE_REGION], payload.get("reference_url", "")


def result_message(results: list[RunResult], *, reachable: bool) -> tuple[str, str]:
    """The results as the centre stores them, signed with this region's key: (body, signature).
    `reachable` is the region's own reachability check as it last stood."""
    rows = [
        {
            "run_id": r.spec.run_id,
            "state": str(r.state),
            "started_at": r.started_at,
            "finished_at": r.finished_at,
            "value": r.value,
            "detail": r.detail[:500],
            "sampled_at": r.extra.get("sampled_at"),
            "reachable": reachable,
        }
        for r in results
    ]
    return signed_body(settings.PROBE_REGION, rows, key=settings.PROBE_REGION_KEY)
