from .audit import CONFIGURATION_SUBJECTS, AuditEvent, Subject
from .components import Component, ComponentGroup, ComponentStatus, StatusMode, StatusPeriod
from .incidents import (
    ComponentChange,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
)
from .metrics import Aggregation, Metric, MetricKind, Outcome, Resolution, Rollup, Sample, Unit
from .postmortems import (
    SECTIONS,
    ActionItem,
    ActionItemState,
    DuePrecision,
    Postmortem,
    PostmortemState,
)

__all__ = [
    "CONFIGURATION_SUBJECTS",
    "SECTIONS",
    "ActionItem",
    "ActionItemState",
    "Aggregation",
    "AuditEvent",
    "Component",
    "ComponentChange",
    "ComponentGroup",
    "ComponentStatus",
    "DuePrecision",
    "Impact",
    "Incident",
    "IncidentKind",
    "IncidentStatus",
    "IncidentUpdate",
    "Metric",
    "MetricKind",
    "Outcome",
    "Postmortem",
    "PostmortemState",
    "Resolution",
    "Rollup",
    "Sample",
    "StatusMode",
    "StatusPeriod",
    "Subject",
    "Unit",
]

# --- issue 4: probes ---
from .probes import (  # noqa: E402
    ACTIVE_RUN_STATES,
    BreakerState,
    CircuitBreaker,
    MetricHealth,
    Probe,
    ProbeKind,
    ProbeRun,
    RunState,
)

__all__ += [
    "ACTIVE_RUN_STATES",
    "BreakerState",
    "CircuitBreaker",
    "MetricHealth",
    "Probe",
    "ProbeKind",
    "ProbeRun",
    "RunState",
]
