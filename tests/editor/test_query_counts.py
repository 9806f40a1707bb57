"""Editor pages cost the same number of queries however long the incident or the backlog is."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import save_action_item
from incidents.lifecycle.updates import post_update
from incidents.models import ActionItem, Metric

from .conftest import logged_in


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def _add_updates(incident, api, responder, count):
    for n in range(count):
        post_update(
            incident,
            PostUpdate(
                status="identified",
                body={"en": f"Update {n}"},
                language="en",
                component_statuses={api: "major_outage" if n % 2 else "partial_outage"},
            ),
            actor=responder,
        )


@pytest.mark.django_db
def test_the_cockpit_does_not_query_per_update(responder, incident, api):
    client = logged_in(responder)
    url = f"/editor/incidents/{incident.pk}/"
    _add_updates(incident, api, responder, 5)
    few = _queries(client, url)
    _add_updates(incident, api, responder, 25)
    assert _queries(client, url) == few


@pytest.mark.django_db
def test_the_dashboard_does_not_query_per_item(responder, postmortem):
    client = logged_in(responder)

    def add(count):
        for n in range(count):
            save_action_item(
                ActionItem(postmortem=postmortem, title={"en": f"Item {n}"}, owner=responder), actor=responder
            )

    add(3)
    few = _queries(client, "/editor/action-items/")
    add(20)
    assert _queries(client, "/editor/action-items/") == few


@pytest.mark.django_db
def test_the_board_does_not_query_per_component_metric_or_open_incident(
    viewer, responder, make_component, group
):
    client = logged_in(viewer)

    def add(count, offset):
        for n in range(offset, offset + count):
            component = make_component(f"c{n}", group=group, name={"en": f"Component {n}"})
            Metric.objects.create(component=component, slug=f"m{n}", name={"en": f"M {n}"}, unit="ms")
            declare_incident(
                DeclareIncident(
                    title=f"Incident {n}",
                    language="en",
                    body="We are investigating.",
                    component_statuses={component: "partial_outage"},
                ),
                actor=responder,
            )

    add(2, 0)
    few = _queries(client, "/editor/")
    add(6, 2)
    assert _queries(client, "/editor/") == few
