"""The overview's open incidents: each with the newest update of its timeline, and only that one."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update

pytestmark = pytest.mark.django_db


def test_an_open_incident_shows_its_newest_update_by_the_time_it_describes(client, component):
    began = timezone.now() - dt.timedelta(hours=1)
    with time_machine.travel(began, tick=False):
        incident = declare_incident(
            DeclareIncident(title="Slow webhooks", language="en", body="Looking into it."), actor=None
        )
    with time_machine.travel(began + dt.timedelta(minutes=20), tick=False):
        post_update(
            incident,
            PostUpdate(status="identified", body={"en": "A stuck partition."}, language="en"),
            actor=None,
        )
    with time_machine.travel(began + dt.timedelta(minutes=40), tick=False):
        # Entered last, but backdated to before the one above: not the newest readers see.
        post_update(
            incident,
            PostUpdate(
                status="investigating",
                body={"en": "Queues growing."},
                language="en",
                display_at=began + dt.timedelta(minutes=10),
            ),
            actor=None,
        )

    page = client.get("/").content.decode()

    assert "Slow webhooks" in page
    assert "A stuck partition." in page
    assert "Queues growing." not in page
    assert "Looking into it." not in page
