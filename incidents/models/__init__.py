"""The domain's models, one module per area; everything is importable from incidents.models."""

# ruff: noqa: F401 (these imports are the package's interface)

from .api_tokens import ApiToken, TokenScope
from .audit import CONFIGURATION_SUBJECTS, AuditEvent, Subject
from .components import (
    Component,
    ComponentGroup,
    ComponentStatus,
    ComponentStatusChange,
    StatusMode,
    StatusPeriod,
    UptimeMonth,
)
from .editor import OverdueReminder, ReminderState, UpdateTemplate
from .incidents import (
    ComponentChange,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
)
from .intake import ALERT_STATUSES, AlertRule, AlertSource, AlertState, IntakeAlert
from .metrics import Aggregation, Metric, MetricKind, Outcome, Resolution, Rollup, Sample, Unit
from .postmortems import (
    MAX_KEY_FIGURES,
    SECTIONS,
    ActionItem,
    ActionItemState,
    DuePrecision,
    KeyFigure,
    KeyFigureUnit,
    Postmortem,
    PostmortemState,
)
from .probes import (
    ACTIVE_RUN_STATES,
    BreakerState,
    CircuitBreaker,
    MetricHealth,
    Probe,
    ProbeKind,
    ProbeRun,
    RunState,
)
from .regions import ProbeRegion, RegionHealth, queue_of
from .scheduling import ScheduledRun, SchedulerLease
from .security import Counter
from .subscribers import (
    Channel,
    Delivery,
    DeliveryState,
    Subscriber,
    idempotency_key_for,
    idempotency_key_prefix,
)
