"""The overview's reads compiled once per connection give what the ORM gives, for any times."""

import datetime as dt

import pytest
from django.utils import timezone

from incidents import selectors
from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.models import Incident
from incidents.selectors.precompiled import Precompiled
from incidents.selectors.public import open_events

pytestmark = pytest.mark.django_db


def test_each_call_reads_with_its_own_times(site):
    now = timezone.now()
    week = selectors.events_since(now - dt.timedelta(days=7))
    today = selectors.events_since(now - dt.timedelta(hours=1))

    assert [event.slug for event in week] == [site["current"].slug, site["past"].slug]
    assert [event.slug for event in today] == [site["current"].slug]


def test_rows_written_after_the_first_call_are_read(site, admin):
    first = open_events()
    post_update(
        site["current"],
        PostUpdate(status="identified", body={"en": "Found it."}, language="en"),
        actor=admin,
    )

    again = open_events()

    assert [event.pk for event in again] == [event.pk for event in first]
    update = next(event for event in again if event.pk == site["current"].pk).latest_updates[0]
    assert update.body == {"en": "Found it."}


def test_the_overview_reads_each_event_with_its_components(site):
    overview = selectors.overview_summary(past_since=timezone.now() - dt.timedelta(days=15))

    current = next(event for event in overview.summary.active_incidents if event.pk == site["current"].pk)
    past = next(event for event in overview.past_events if event.pk == site["past"].pk)
    assert [c.slug for c in current.components.all()] == ["public-api"]
    assert [c.slug for c in past.components.all()] == ["webhook-delivery"]


def test_a_time_the_query_does_not_take_is_refused(db):
    reads = Precompiled(lambda since: Incident.objects.all(), times=("since",))

    with pytest.raises(ValueError, match="since"):
        reads(since=timezone.now())
