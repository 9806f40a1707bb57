"""How the engine's result writer gathers results into batches: one transaction for what
trickles in over a short while, without holding a result near its run's abandon time."""

import time

from incidents.models import RunState
from incidents.probes.base import RunResult, RunSpec
from incidents.probes.engine import ProbeEngine


def spec(run_id: int, *, abandon_in: float = 60.0) -> RunSpec:
    now = time.time()
    return RunSpec(
        run_id=run_id, probe_id=1, metric_id=1, kind="http", url="http://127.0.0.1/", config={}, unit="ms",
        connect_timeout=1, read_timeout=1, timeout=1, scheduled_at=now, deadline=now + 1,
        abandon_after=now + abandon_in, target="http://127.0.0.1/", host="127.0.0.1",
    )  # fmt: skip


def batches_of(*, small_batch: int, abandon_in: float = 60.0) -> list[list[int]]:
    """Two results 0.3 s apart, with a linger of 0.2 s: the batches the writer stores."""
    stored: list[list[int]] = []
    engine = ProbeEngine(
        concurrency=1,
        per_host=1,
        linger=0.2,
        small_batch=small_batch,
        store=lambda batch: stored.append([r.spec.run_id for r in batch]),
    )
    try:
        for run_id in (1, 2):
            engine.store_later([RunResult(spec(run_id, abandon_in=abandon_in), RunState.OK, 0.0, 0.0, 1.0)])
            time.sleep(0.3)
        engine.drain(3)
    finally:
        engine.stop()
    return stored


def test_a_handful_of_results_waits_one_linger_more_and_goes_in_one_batch():
    assert batches_of(small_batch=50) == [[1, 2]]


def test_a_region_worker_sends_what_it_gathered_at_each_linger():
    assert batches_of(small_batch=0) == [[1], [2]]


def test_no_result_waits_past_its_runs_abandon_time_for_company():
    # Abandoned 1.15 s from now: the writer must store it by 0.15 s, before the second arrives.
    assert batches_of(small_batch=50, abandon_in=1.15) == [[1], [2]]
