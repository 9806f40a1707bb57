"""Status by quorum, as pure functions: what the regions that measure a metric agree on.

Each reporting region gives a verdict; the metric's status is the worst status that at least a
quorum of them reach. A region without fresh data (it missed ticks, or its own reachability
check fails) does not report and leaves the count; with fewer reporting regions than the quorum
there is no decision and the metric keeps its status.
"""

import datetime as dt
import math
from dataclasses import dataclass

from django.utils.translation import ngettext

from incidents.models import ComponentStatus


@dataclass(frozen=True)
class Verdict:
    region: str
    status: ComponentStatus
    figure: float | None
    since: dt.datetime | None  # the first tick of this verdict
    fresh: bool = True


@dataclass(frozen=True)
class Decision:
    status: ComponentStatus
    figure: float | None  # the figure of the region that completes the quorum
    agreeing: int  # reporting regions at or past `status` (at it, for operational)
    reporting: int
    configured: int
    since: dt.datetime | None  # the earliest first tick among the agreeing regions


def quorum_size(*, reporting: int, configured: int, setting: int = 0) -> int:
    """`setting` when given; else a majority of the reporting regions, at least 2 where 2 or
    more regions are configured, so one region alone never decides for several."""
    if setting > 0:
        return setting
    majority = reporting // 2 + 1
    return max(majority, 2) if configured >= 2 else majority


def decide(
    verdicts: list[Verdict], *, configured: int, setting: int = 0, higher_is_worse: bool = True
) -> Decision | None:
    """The worst status a quorum of the fresh verdicts reach, or None without a quorum. Its
    figure is the worst one that a quorum of regions measured (at least that bad from as many
    places), a failed check (no figure) counting as the worst."""
    fresh = [v for v in verdicts if v.fresh]
    needed = quorum_size(reporting=len(fresh), configured=configured, setting=setting)
    if not fresh or len(fresh) < needed:
        return None

    def worse_first(verdict: Verdict) -> tuple[int, float]:
        if verdict.figure is None:
            return ComponentStatus(verdict.status).severity, math.inf
        return ComponentStatus(
            verdict.status
        ).severity, verdict.figure if higher_is_worse else -verdict.figure

    ranked = sorted(fresh, key=worse_first, reverse=True)
    deciding = ranked[needed - 1]
    status = ComponentStatus(deciding.status)
    if status == ComponentStatus.OPERATIONAL:
        agreeing = [v for v in fresh if ComponentStatus(v.status) == status]
    else:
        agreeing = [v for v in fresh if ComponentStatus(v.status).severity >= status.severity]
    starts = [v.since for v in agreeing if v.since is not None]
    return Decision(
        status=status,
        figure=deciding.figure,
        agreeing=len(agreeing),
        reporting=len(fresh),
        configured=configured,
        since=min(starts) if starts else None,
    )


def described(text: str, *, reporting: int, agreeing: int) -> str:
    """ "2 of 3 regions, …" before what a quorum of regions decided; `text` as it is otherwise."""
    if reporting < 2 or agreeing == 0:
        return text
    return ngettext(
        "%(agreeing)s of %(reporting)s region, %(held)s",
        "%(agreeing)s of %(reporting)s regions, %(held)s",
        reporting,
    ) % {"agreeing": agreeing, "reporting": reporting, "held": text}
