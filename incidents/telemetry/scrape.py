"""Figures read when Prometheus scrapes: they live in the database and the snapshot folder,
so every web process reports the same value and nothing is kept in memory between scrapes."""

import time

from django.db import DatabaseError
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from incidents.models import BreakerState, Channel, CircuitBreaker, Delivery, DeliveryState, Probe, ProbeRun
from incidents.models.probes import ACTIVE_RUN_STATES
from incidents.public import degraded, snapshot


class DatabaseCollector:
    """Outbox depth and age per channel, circuit breakers, overdue probe runs, snapshot age."""

    def collect(self):
        up = GaugeMetricFamily("statuspage_database_up", "Whether the scrape could read the database.")
        families = []
        # While this process knows the database is down, a scrape does not wait on it.
        if not degraded.state.is_down():
            try:
                families = [*self._outbox(), self._breakers(), self._overdue_runs()]
            except DatabaseError:
                families = []
        up.add_metric([], 1 if families else 0)
        yield up
        yield from families
        yield self._snapshot_age()

    def _outbox(self):
        depth = GaugeMetricFamily(
            "statuspage_outbox_depth", "Notifications waiting to be sent, by channel.", labels=["channel"]
        )
        age = GaugeMetricFamily(
            "statuspage_outbox_oldest_age_seconds",
            "Age of the oldest notification waiting to be sent, by channel.",
            labels=["channel"],
        )
        now = timezone.now()
        waiting = (
            Delivery.objects.filter(state__in=(DeliveryState.PENDING, DeliveryState.SENDING))
            .values("channel")
            .annotate(n=Count("id"), oldest=Min("created_at"))
            .order_by()
        )
        rows = {row["channel"]: row for row in waiting}
        for channel in Channel.values:  # every channel, 0 when nothing waits: absent means unknown
            row = rows.get(channel)
            depth.add_metric([channel], row["n"] if row else 0)
            age.add_metric([channel], max(0.0, (now - row["oldest"]).total_seconds()) if row else 0.0)
        return [depth, age]

    def _breakers(self):
        family = GaugeMetricFamily(
            "statuspage_circuit_breakers", "Circuit breakers of probe targets, by state.", labels=["state"]
        )
        counts = dict(CircuitBreaker.objects.values_list("state").annotate(n=Count("id")).order_by())
        for state in BreakerState.values:
            family.add_metric([state], counts.get(state, 0))
        return family

    def _overdue_runs(self):
        family = GaugeMetricFamily(
            "statuspage_probe_runs_overdue",
            "Probe runs still pending or running past their deadline, by probe kind.",
            labels=["kind"],
        )
        counts = dict(
            ProbeRun.objects.filter(state__in=ACTIVE_RUN_STATES, deadline__lt=timezone.now())
            .values_list("probe__kind")
            .annotate(n=Count("id"))
            .order_by()
        )
        for kind in Probe._meta.get_field("kind").choices:
            family.add_metric([kind[0]], counts.get(kind[0], 0))
        return family

    def _snapshot_age(self):
        family = GaugeMetricFamily(
            "statuspage_snapshot_age_seconds",
            "Seconds since the static snapshot of the public site was written (NaN: none yet).",
        )
        folder = snapshot.current_folder()
        written = (folder / snapshot.MANIFEST).stat().st_mtime if folder is not None else None
        family.add_metric([], time.time() - written if written is not None else float("nan"))
        return family
