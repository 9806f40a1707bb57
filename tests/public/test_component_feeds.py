"""A component's feed lists every update of the incidents affecting it, newest first, whatever
the order in which updates were posted and components were added."""

import datetime as dt
import re

import feedparser
import pytest
from django.contrib import admin as django_admin

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update
from incidents.models import ComponentStatus

pytestmark = pytest.mark.django_db

DURATION_LINE = re.compile(r"<p>Duration: [^<]*</p>")
# The line each entry begins with: when the update was shown, in its incident's zone.
TIME_LINE = re.compile(r"^<p>[^<]* GMT[^<]*</p>")


@pytest.fixture(autouse=True)
def _uncached(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0  # what is read, not when the cache lets it show


def feed_texts(client, slug: str) -> list[str]:
    """Each entry's update text, without the lines telling its time and the incident's duration."""
    parsed = feedparser.parse(client.get(f"/components/{slug}/history.atom").content)
    return [TIME_LINE.sub("", DURATION_LINE.sub("", entry.summary)) for entry in parsed.entries]


@pytest.fixture
def api(make_component):
    return make_component("public-api", name={"en": "Public API"})


@pytest.fixture
def dashboard(make_component):
    return make_component("dashboard", name={"en": "Dashboard"})


def declare(responder, *components, started_at=None):
    """An incident with its first update ("First look.") and components partly down."""
    return declare_incident(
        DeclareIncident(
            title="Errors",
            language="en",
            body="First look.",
            component_statuses=dict.fromkeys(components, ComponentStatus.PARTIAL_OUTAGE),
            started_at=started_at,
        ),
        actor=responder,
    )


def admin_saves(rf, admin_user, obj) -> None:
    """What the admin does after saving an object's form."""
    model_admin = django_admin.site._registry[type(obj)]
    request = rf.post("/admin/")
    request.user = admin_user
    form = model_admin.get_form(request, obj)(instance=obj)
    form.save_m2m = lambda: None
    model_admin.save_related(request, form, formsets=[], change=True)


def test_a_component_added_later_lists_the_incidents_earlier_updates(client, responder, api, dashboard, at):
    incident = declare(responder, api, started_at=at - dt.timedelta(hours=2))
    assert feed_texts(client, "dashboard") == []
    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "The dashboard too."},
            language="en",
            component_statuses={dashboard: ComponentStatus.DEGRADED_PERFORMANCE},
        ),
        actor=responder,
    )
    texts = feed_texts(client, "dashboard")
    assert len(texts) == 2
    assert "The dashboard too." in texts[0] and "First look." in texts[1]


def test_an_update_backdated_in_the_admin_moves_down_the_component_feed(
    client, rf, admin_user, responder, api, at, settings
):
    settings.PUBLIC_FEED_ENTRIES = 1  # one incident, its updates newest first
    incident = declare(responder, api, started_at=at - dt.timedelta(hours=3))
    later = post_update(
        incident, PostUpdate(status="identified", body={"en": "Found it."}, language="en"), actor=responder
    )
    assert feed_texts(client, "public-api") == ["<p>Found it.</p>", "<p>First look.</p>"]

    later.display_at = at - dt.timedelta(hours=4)  # before the first update
    later.save()
    admin_saves(rf, admin_user, later)

    assert feed_texts(client, "public-api") == ["<p>First look.</p>", "<p>Found it.</p>"]


def test_a_component_taken_off_an_incident_in_the_admin_leaves_its_feed(
    client, rf, admin_user, responder, api, dashboard
):
    incident = declare(responder, api, dashboard)
    assert feed_texts(client, "dashboard") == ["<p>First look.</p>"]
    incident.components.remove(dashboard)
    admin_saves(rf, admin_user, incident)
    assert feed_texts(client, "dashboard") == []
    assert feed_texts(client, "public-api") == ["<p>First look.</p>"]
