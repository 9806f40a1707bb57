"""The domain's models, one module per area; everything is importable from incidents.models."""

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
from .metrics import Aggregation, Metric, MetricKind, Outcome, Resolution, Rollup, Sample, Unit
from .postmortems import SECTIONS, ActionItem, ActionItemState, DuePrecision, Postmortem, PostmortemState
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
from .security import Counter
from .subscribers import (
    Channel,
    Delivery,
    DeliveryState,
    Subscriber,
    idempotency_key_for,
    idempotency_key_prefix,
)

__all__ = [
    "ACTIVE_RUN_STATES",
    "CONFIGURATION_SUBJECTS",
    "SECTIONS",
    "ActionItem",
    "ActionItemState",
    "Aggregation",
    "ApiToken",
    "AuditEvent",
    "BreakerState",
    "Channel",
    "CircuitBreaker",
    "Component",
    "ComponentChange",
    "ComponentGroup",
    "ComponentStatus",
    "ComponentStatusChange",
    "Counter",
    "Delivery",
    "DeliveryState",
    "DuePrecision",
    "Impact",
    "Incident",
    "IncidentKind",
    "IncidentStatus",
    "IncidentUpdate",
    "Metric",
    "MetricHealth",
    "MetricKind",
    "Outcome",
    "OverdueReminder",
    "Postmortem",
    "PostmortemState",
    "Probe",
    "ProbeKind",
    "ProbeRun",
    "ReminderState",
    "Resolution",
    "Rollup",
    "RunState",
    "Sample",
    "StatusMode",
    "StatusPeriod",
    "Subject",
    "Subscriber",
    "TokenScope",
    "Unit",
    "UpdateTemplate",
    "UptimeMonth",
    "idempotency_key_for",
    "idempotency_key_prefix",
]
