"""The overview's day bars: the days before today are kept between renders (under the content
version), today's bar is read on every request."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from incidents import selectors
from incidents.lifecycle.commands import DeclareIncident, EditIncident, ResolveIncident
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import resolve_incident
from incidents.models import Component
from incidents.public.uptime_bars import overview_bars, uptime_bars
from incidents.services.components import observe_component_status


def bar_texts(html: str, component: str) -> list[str]:
    """The texts of a component's day bars on the overview."""
    days = re.search(rf'<ol class="days" aria-label="{component}, last 90 days[^"]*">.*?</ol>', html, re.S)
    assert days, f"no bars for {component}"
    return re.findall(
        r'<li(?: class="status-[a-z_]+")?><(?:span|a href="[^"]*"(?: tabindex="-1")?)>([^<]*)<', days.group(0)
    )


@pytest.mark.django_db
def test_todays_bar_follows_a_status_probes_moved_after_the_bars_were_kept(client, site):
    assert bar_texts(client.get("/").content.decode(), "Email delivery")[-1].endswith("Operational")
    email = Component.objects.get(slug="email-delivery")
    observe_component_status(
        email,
        status="major_outage",
        at=timezone.now() - dt.timedelta(minutes=30),
        reason="",
        automation="probe",
    )

    today = bar_texts(client.get("/").content.decode(), "Email delivery")[-1]

    assert today.startswith("Mar 10, 2026: Major outage")
    assert "down for 30 minutes" in today


@pytest.mark.django_db
def test_an_incident_published_for_an_earlier_day_shows_in_its_bar_at_once(
    client, site, admin, django_capture_on_commit_callbacks
):
    client.get("/")
    email = Component.objects.get(slug="email-delivery")
    with django_capture_on_commit_callbacks(execute=True):
        incident = declare_incident(
            DeclareIncident(
                title="Mail bounced",
                language="en",
                body="Bounces.",
                impact="minor",
                component_statuses={email: "operational"},
                started_at=timezone.now() - dt.timedelta(days=5),
            ),
            actor=admin,
        )
        resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)

    texts = bar_texts(client.get("/").content.decode(), "Email delivery")

    assert any(text.startswith("Mar 5, 2026") and text.endswith("1 incident") for text in texts)
    assert '<ul hidden><li><a href="/incidents/' in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_past_incidents_new_title_shows_in_its_days_bar_at_once(
    client, site, admin, django_capture_on_commit_callbacks
):
    before = client.get("/").content.decode()
    incident = site["past"]
    assert f'<a href="/incidents/{incident.slug}/">Webhooks delayed</a>' in before
    with django_capture_on_commit_callbacks(execute=True):
        edit_incident(
            incident,
            EditIncident(expected_version=incident.version, title={"en": "Webhooks held back"}),
            actor=admin,
        )

    after = client.get("/").content.decode()

    assert f'<a href="/incidents/{incident.slug}/">Webhooks held back</a>' in after
    assert "Webhooks delayed" not in after


@pytest.mark.django_db
def test_the_overview_draws_the_same_bars_as_the_component_page(client, site):
    components = list(Component.objects.all())
    names = {c.pk: c.slug.upper() for c in components}
    spans = selectors.uptime_days(components, days=90)

    for _render in ("afresh", "with the days kept"):
        drawn = overview_bars(components, names, language="en", days=90)

        assert drawn == {c.pk: uptime_bars(names[c.pk], spans[c.pk], "en", slug=c.slug) for c in components}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, legend",
    [
        ("/", ["90 days ago", "30 days ago", "All 90 days", "Today"]),
        ("/ru/", ["90 дней назад", "30 дней назад", "Все 90 дней", "Сегодня"]),
    ],
)
def test_every_rows_bars_carry_their_legend_in_the_pages_language(client, site, path, legend):
    html = client.get(path).content.decode()

    rows = re.findall(r'<p class="uptime-legend">(.*?)</p>', html, re.S)
    assert rows and len(rows) == html.count('<ol class="days"')
    for row in rows:
        assert [text for text in legend if text in row] == legend
