"""Counters and histograms kept by the process that does the work (worker or web); with
PROMETHEUS_MULTIPROC_DIR set, a scrape of any web process adds up every process's files."""

from prometheus_client import Counter, Histogram

PROBE_RUNS = Counter(
    "statuspage_probe_runs", "Probe runs that ended, by probe kind and outcome.", ["kind", "outcome"]
)
PROBE_LATENESS = Histogram(
    "statuspage_probe_lateness_seconds",
    "How long after its scheduled time a probe run started.",
    ["kind"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
PROBE_DURATION = Histogram(
    "statuspage_probe_duration_seconds",
    "How long a probe run took, from start to end.",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
DELIVERIES = Counter(
    "statuspage_deliveries",
    "Notifications by channel and outcome (sent, retried, failed, dropped, held).",
    ["channel", "outcome"],
)
PAGE_CACHE_REQUESTS = Counter(
    "statuspage_page_cache_requests",
    "Public page requests the page cache answered, by outcome (hit: served stored; render: rendered).",
    ["outcome"],
)
PAGE_RENDERS = Counter(
    "statuspage_page_renders",
    "Public pages and /api/v2/ documents rendered rather than served from the cache, by page.",
    ["page"],
)
INTAKE_ALERTS = Counter(
    "statuspage_intake_alerts",
    "Alerts received from Alertmanager or Grafana, by source and outcome.",
    ["source", "outcome"],
)


def count_probe_run(
    *, kind: str, outcome: str, scheduled_at: float, started_at: float | None, finished_at: float
):
    PROBE_RUNS.labels(kind=kind, outcome=outcome).inc()
    if started_at is not None:
        PROBE_LATENESS.labels(kind=kind).observe(max(0.0, started_at - scheduled_at))
        PROBE_DURATION.labels(kind=kind).observe(max(0.0, finished_at - started_at))


def count_deliveries(channel: str, **outcomes: int) -> None:
    for outcome, number in outcomes.items():
        if number:
            DELIVERIES.labels(channel=channel, outcome=outcome).inc(number)


def count_render(page: str) -> None:
    PAGE_RENDERS.labels(page=page).inc()
