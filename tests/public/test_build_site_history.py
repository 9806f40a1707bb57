"""The bench history builder makes the shape it promises, once."""

import pytest
from django.core.management import CommandError, call_command

from incidents.models import Component, ComponentGroup, Incident, IncidentUpdate, Rollup, StatusPeriod

pytestmark = pytest.mark.django_db


def test_builds_groups_components_incidents_updates_and_rollups(capsys):
    call_command(
        "build_site_history",
        "--groups=2",
        "--components=4",
        "--incidents=20",
        "--metrics=2",
        "--rollup-days=3",
    )
    assert ComponentGroup.objects.count() == 2 and Component.objects.count() == 4
    assert Incident.objects.count() == 21  # and one upcoming maintenance window
    assert IncidentUpdate.objects.count() == 19 * 4 + 2  # the open incident and the window have one each
    assert Rollup.objects.filter(resolution="hour").count() == 2 * (3 * 24 + 1)
    # Every component has exactly one open status period, as the services keep it.
    assert StatusPeriod.objects.filter(ended_at__isnull=True).count() == 4
    assert "incidents=21" in capsys.readouterr().out


def test_refuses_to_build_twice():
    call_command(
        "build_site_history",
        "--groups=1",
        "--components=1",
        "--incidents=1",
        "--metrics=1",
        "--rollup-days=1",
    )
    with pytest.raises(CommandError):
        call_command(
            "build_site_history",
            "--groups=1",
            "--components=1",
            "--incidents=1",
            "--metrics=1",
            "--rollup-days=1",
        )
