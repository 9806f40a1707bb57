"""The probe engine inside a worker process: an asyncio loop that runs many probes at once.

Celery hands a batch of claimed runs to `submit` and returns at once; the loop (its own
thread) waits until each run is due, takes a slot from the global bound and from the bound of
the run's host (so one slow host cannot take every slot), and cuts the run at its hard
deadline. Results go to a writer thread that stores them in batches through the services, so
the ORM is never used from the event loop. If the process dies, the watchdog ends its runs.
"""

import asyncio
import gc
import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import aiohttp
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from incidents.models import ProbeKind, RunState
from incidents.outbound.client import open_session, refusal_in
from incidents.services.probe_results import record_run_results
from incidents.services.probes import mark_triggered

from . import kind_module
from .base import Measurement, RunResult, RunSpec

logger = logging.getLogger(__name__)

WRITE_BATCH = 300
# A batch smaller than this when its linger ends waits one linger more (at most twice it).
SMALL_BATCH = 50
# How long the writer gathers results before writing them together (bigger batches cost less
# CPU a run; a status decided by quorum waits for it), and how long before a run's abandon
# time its result must be stored at the latest.
WRITE_LINGER = 0.45
# A region's worker only signs and sends its results: short batches keep the quorum quick.
REGION_LINGER = 0.35
WRITE_MARGIN = 1.0
# Put on the results queue by stop(): the writer stores what it gathered, then ends.
STOP = object()


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class ProbeEngine:
    def __init__(
        self,
        *,
        concurrency: int,
        per_host: int,
        linger: float = WRITE_LINGER,
        store: Callable[[list[RunResult]], object] | None = None,
        small_batch: int = SMALL_BATCH,
    ):
        self.concurrency, self.per_host, self.linger = concurrency, per_host, linger
        self.small_batch = small_batch
        # Where finished runs go: the database at home, a signed message from another region.
        self.store = store or _store_in_database
        self.reachability: Reachability | None = None
        self.loop = asyncio.new_event_loop()
        self.results: queue.SimpleQueue[RunResult | object] = queue.SimpleQueue()
        self.db = ThreadPoolExecutor(max_workers=2, thread_name_prefix="probe-db")
        self.tasks: set[asyncio.Task] = set()
        self.host_slots: dict[str, asyncio.Semaphore] = {}
        self.in_flight = 0
        self.counter_lock = threading.Lock()
        self.ready = threading.Event()
        threading.Thread(target=self._run_loop, name="probe-loop", daemon=True).start()
        threading.Thread(target=self._write_forever, name="probe-writer", daemon=True).start()
        if not self.ready.wait(10):
            raise RuntimeError("the probe event loop did not start")

    # --- the event loop thread ---
    def _run_loop(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._open())
        self.ready.set()
        self.loop.run_forever()

    async def _open(self) -> None:
        self.slots = asyncio.Semaphore(self.concurrency)
        self.session = open_session(headers={"User-Agent": "statuspage-probe/1"})

    def store_later(self, results: list[RunResult]) -> None:
        """Results measured elsewhere (by a region's workers), stored with this engine's own."""
        with self.counter_lock:
            self.in_flight += len(results)
        for result in results:
            self.results.put(result)

    def submit(self, specs: list[RunSpec]) -> None:
        """Called from the Celery task's thread: schedule the runs and return."""
        with self.counter_lock:
            self.in_flight += len(specs)
        self.loop.call_soon_threadsafe(self._start, specs)

    def _start(self, specs: list[RunSpec]) -> None:
        for spec in specs:
            task = self.loop.create_task(self._run(spec))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _run(self, spec: RunSpec) -> None:
        wait = spec.scheduled_at - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        async with self.slots, self.host_slots.setdefault(spec.host, asyncio.Semaphore(self.per_host)):
            started = time.time()
            # Never past the watchdog's abandon time, so a live run is not declared abandoned.
            budget = min(spec.timeout, spec.abandon_after - 0.25 - started)
            measurement = await self._measure(spec, budget, started)
        finished = time.time()
        if measurement.awaiting_receipt:
            # The receiver finishes the run; at the deadline a timeout ends it if it did not.
            self.loop.call_later(max(0.0, spec.deadline - finished), self._canary_timeout, spec, started)
            return
        self.results.put(
            RunResult(spec, measurement.state, started, finished, measurement.value, measurement.detail)
        )

    async def _measure(self, spec: RunSpec, budget: float, started: float) -> Measurement:
        if budget <= 0:
            return Measurement(RunState.ERROR, None, "started after its deadline (worker overloaded)")
        try:
            async with asyncio.timeout(budget):
                if spec.kind == ProbeKind.WEBHOOK:
                    at = timezone.now()
                    if not await self.loop.run_in_executor(self.db, _mark_triggered, spec.run_id, at):
                        return Measurement(RunState.ERROR, None, "run no longer active")
                return await kind_module(spec.kind).measure(spec, self.session)
        except TimeoutError:
            return Measurement(RunState.TIMEOUT, None, f"no answer within {time.time() - started:.1f} s")
        except (aiohttp.ClientError, OSError, ValueError) as error:
            refusal = refusal_in(error)
            detail = f"Address refused: {refusal}" if refusal else f"{type(error).__name__}: {error}"
            return Measurement(RunState.FAILED, None, detail[:500])
        except Exception as error:  # a bug in a probe kind must still end the run
            logger.exception("probe run %s crashed", spec.run_id)
            return Measurement(RunState.ERROR, None, f"{type(error).__name__}: {error}"[:500])

    def _canary_timeout(self, spec: RunSpec, started: float) -> None:
        self.results.put(RunResult(spec, RunState.TIMEOUT, started, time.time(), None, "canary not received"))

    # --- the writer thread ---
    def _write_forever(self) -> None:
        while (first := self.results.get()) is not STOP:
            batch = [first]
            # Gather results for a while (bigger batches cost less CPU per run), but store each
            # one well before the watchdog would call its run abandoned.
            started, lingers = time.time(), 1
            latest_flush = first.spec.abandon_after - WRITE_MARGIN
            while len(batch) < WRITE_BATCH:
                # Past the flush time, results already waiting still join the batch: storing
                # them one by one would cost the most exactly when the writer is behind.
                remaining = min(started + lingers * self.linger, latest_flush) - time.time()
                try:
                    result = (
                        self.results.get(timeout=remaining) if remaining > 0 else self.results.get_nowait()
                    )
                except queue.Empty:
                    if lingers == 1 and len(batch) < self.small_batch:
                        lingers = 2  # results trickle in: wait one linger more than store a handful
                        continue
                    break
                if result is STOP:
                    self.results.put(STOP)
                    break
                batch.append(result)
                latest_flush = min(latest_flush, result.spec.abandon_after - WRITE_MARGIN)
            self._write(batch)
            with self.counter_lock:
                self.in_flight -= len(batch)
        connection.close()

    def _write(self, batch: list[RunResult]) -> None:
        for attempt in range(3):
            try:
                self.store(batch)
                return
            except Exception:
                logger.exception("storing %s probe results failed (attempt %s)", len(batch), attempt + 1)
                time.sleep(0.5)

    def watch_reachability(self, url: str) -> None:
        """Checks `url` every REACHABILITY_EVERY seconds from now on (a region's own check)."""
        if url and (self.reachability is None or self.reachability.url != url):
            self.reachability = Reachability(url)
            asyncio.run_coroutine_threadsafe(self.reachability.watch(lambda: self.session), self.loop)

    @property
    def reachable(self) -> bool:
        return self.reachability is None or self.reachability.ok

    def stop(self) -> None:
        """Closes the HTTP session and stops the loop (runs still in flight are dropped); the
        writer stores what it holds, closes its database connection and ends, and the database
        threads end."""

        async def close():
            await self.session.close()
            self.loop.stop()

        asyncio.run_coroutine_threadsafe(close(), self.loop)
        self.results.put(STOP)
        self.db.shutdown(wait=True)

    def drain(self, timeout: float) -> None:
        """Waits (at most `timeout` seconds) for runs in flight to end and be stored."""
        end = time.monotonic() + timeout
        while self.in_flight > 0 and time.monotonic() < end:
            time.sleep(0.1)


REACHABILITY_EVERY = 10.0
REACHABILITY_TIMEOUT = 3.0


class Reachability:
    """A region's check of its own network: while its reference URL does not answer, what the
    region measures says more about the region than about the targets."""

    def __init__(self, url: str):
        self.url, self.ok = url, True

    async def watch(self, session_of: Callable[[], aiohttp.ClientSession]) -> None:
        while True:
            try:
                async with asyncio.timeout(REACHABILITY_TIMEOUT):
                    async with session_of().get(self.url, allow_redirects=False) as answer:
                        self.ok = answer.status < 500
            except (TimeoutError, aiohttp.ClientError, OSError, ValueError):
                self.ok = False
            await asyncio.sleep(REACHABILITY_EVERY)


def _store_in_database(batch: list[RunResult]) -> None:
    close_old_connections()
    record_run_results(batch)


def _mark_triggered(run_id: int, at) -> bool:
    close_old_connections()
    return mark_triggered(run_id, at=at)


_engine: ProbeEngine | None = None
_engine_pid: int | None = None
_lock = threading.Lock()


# Objects allocated (net) between two young collections. The engine keeps thousands of runs in
# flight, whose timeouts and cancellations leave reference cycles: at the default (2,000) young
# collections ran several times a second and a full one every few seconds, each holding the GIL,
# so the event loop stalled (late runs, hanging runs cut late) and a good share of the CPU went
# to collecting.
YOUNG_COLLECTION_THRESHOLD = 20_000


def _settle_collector() -> None:
    """Keeps what the process loaded before the engine (Django, Celery, the modules) out of every
    collection from now on, and collects young objects in larger, rarer passes."""
    gc.freeze()
    _young, *older = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *older)


def get_engine() -> ProbeEngine:
    """This process's engine, started on first use (after Celery forked the worker)."""
    global _engine, _engine_pid
    with _lock:
        if _engine is None or _engine_pid != os.getpid():
            _settle_collector()
            _engine = ProbeEngine(
                concurrency=settings.PROBE_CONCURRENCY,
                per_host=settings.PROBE_CONCURRENCY_PER_HOST,
                store=_send_to_centre if settings.BROKER_ONLY else None,
                linger=REGION_LINGER if settings.BROKER_ONLY else WRITE_LINGER,
                # A region's batches go out as they are: the centre gathers them again.
                small_batch=0 if settings.BROKER_ONLY else SMALL_BATCH,
            )
            _engine_pid = os.getpid()
        return _engine


def _send_to_centre(batch: list[RunResult]) -> None:
    """A region's worker has no database: its results go back signed, as one message."""
    from celery import current_app

    from .regional import result_message

    body, signature = result_message(batch, reachable=_engine is None or _engine.reachable)
    current_app.send_task("incidents.probes.results", args=[settings.PROBE_REGION, body, signature])


def drain_engine(timeout: float) -> None:
    if _engine is not None and _engine_pid == os.getpid():
        _engine.drain(timeout)
