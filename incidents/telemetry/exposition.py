"""The text a scrape of /metrics returns: every process's counters plus the database figures."""

import os

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess

from .scrape import DatabaseCollector


def scrape_text() -> bytes:
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)  # the counters of every process
    else:
        registry.register(REGISTRY)  # this process's own counters
    registry.register(DatabaseCollector())
    return generate_latest(registry)
