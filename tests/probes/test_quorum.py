"""Status by quorum as a pure decision: which regions agree, and how many must."""

import datetime as dt

import pytest

from incidents.metrics.quorum import Verdict, decide, quorum_size
from incidents.models import ComponentStatus as S

T0 = dt.datetime(2026, 12, 7, 12, 0, tzinfo=dt.UTC)


def v(region, status, *, fresh=True, minute=0, figure=None):
    return Verdict(region, status, figure, T0 + dt.timedelta(minutes=minute), fresh)


@pytest.mark.parametrize(
    ("reporting", "configured", "expected"),
    [(1, 1, 1), (2, 2, 2), (2, 3, 2), (3, 3, 2), (4, 4, 3), (5, 5, 3), (1, 3, 2)],
)
def test_the_quorum_is_a_majority_of_the_reporting_regions_and_never_one_of_several(
    reporting, configured, expected
):
    assert quorum_size(reporting=reporting, configured=configured) == expected


def test_one_region_failing_alone_changes_nothing():
    decision = decide([v("a", S.MAJOR_OUTAGE), v("b", S.OPERATIONAL), v("c", S.OPERATIONAL)], configured=3)
    assert decision.status == S.OPERATIONAL
    assert (decision.agreeing, decision.reporting) == (2, 3)


def test_two_of_three_decide_the_worst_state_both_reach_dated_from_the_earliest():
    decision = decide(
        [v("a", S.MAJOR_OUTAGE, minute=1, figure=900), v("b", S.DEGRADED_PERFORMANCE, minute=2, figure=150),
         v("c", S.OPERATIONAL, minute=0)],
        configured=3,
    )  # fmt: skip
    assert decision.status == S.DEGRADED_PERFORMANCE
    assert decision.figure == 150
    assert decision.agreeing == 2
    assert decision.since == T0 + dt.timedelta(minutes=1)


def test_a_silent_region_leaves_the_count():
    decision = decide([v("a", S.DEGRADED_PERFORMANCE), v("b", S.OPERATIONAL), v("c", S.OPERATIONAL, fresh=False)],
                      configured=3)  # fmt: skip
    assert decision.status == S.OPERATIONAL
    assert decision.reporting == 2


def test_with_fewer_reporting_regions_than_the_quorum_there_is_no_decision():
    assert decide([v("a", S.MAJOR_OUTAGE), v("b", S.OPERATIONAL, fresh=False)], configured=2) is None
    assert decide([], configured=3) is None


def test_a_single_region_decides_alone_as_before():
    assert decide([v("local", S.PARTIAL_OUTAGE)], configured=1).status == S.PARTIAL_OUTAGE


def test_an_explicit_quorum_setting_wins():
    verdicts = [v("a", S.MAJOR_OUTAGE), v("b", S.OPERATIONAL), v("c", S.OPERATIONAL)]
    assert decide(verdicts, configured=3, setting=1).status == S.MAJOR_OUTAGE


def test_the_figure_is_the_worst_one_a_quorum_of_regions_measured():
    # All operational: at least two regions see 342 ms or worse, whatever order they come in.
    verdicts = [v("eu-north", S.OPERATIONAL, figure=168), v("us-east", S.OPERATIONAL, figure=342),
                v("ap-south", S.DEGRADED_PERFORMANCE, figure=1100)]  # fmt: skip
    assert decide(verdicts, configured=3).figure == 342
    assert decide(list(reversed(verdicts)), configured=3).figure == 342
    # Where lower is worse (a success rate), the second lowest.
    rates = [
        v("a", S.OPERATIONAL, figure=99.9),
        v("b", S.OPERATIONAL, figure=99.5),
        v("c", S.OPERATIONAL, figure=99.7),
    ]
    assert decide(rates, configured=3, higher_is_worse=False).figure == 99.7
