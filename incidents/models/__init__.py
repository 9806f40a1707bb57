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
from .incidents import (
    ComponentChange,
    ComponentTimelineEntry,
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
    "ComponentTimelineEntry",
    "ComponentGroup",
    "ComponentStatus",
    "ComponentStatusChange",
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
    "UptimeMonth",
    "Subject",
    "Unit",
]
# --- issue 5: the editor ---
from .editor import OverdueReminder, ReminderState, UpdateTemplate  # noqa: E402

__all__ += ["OverdueReminder", "ReminderState", "UpdateTemplate"]

# --- issue 6: subscriptions ---
from .subscribers import (  # noqa: E402
    Channel,
    Delivery,
    DeliveryState,
    Subscriber,
    idempotency_key_for,
    idempotency_key_prefix,
)

__all__ += [
    "Channel",
    "Delivery",
    "DeliveryState",
    "Subscriber",
    "idempotency_key_for",
    "idempotency_key_prefix",
]

# --- issue 7: API tokens ---
from .api_tokens import ApiToken, TokenScope  # noqa: E402

__all__ += ["ApiToken", "TokenScope"]

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

# --- issue 3/8: the overview frame ---
from .pages import OverviewFrame  # noqa: E402

__all__ += ["OverviewFrame"]

# Login protection and rate limits
from .security import Counter  # noqa: E402

__all__ += ["Counter"]
