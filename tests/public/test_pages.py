"""What a reader sees on each public page, in each language."""

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.updates import post_update
from incidents.models import ComponentStatus, Metric
from incidents.services.components import set_component_status

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]


def text_of(response) -> str:
    return response.content.decode()


def test_overview_banner_comes_from_components_and_open_incidents(client, site):
    page = text_of(client.get("/"))
    assert "Major system outage" in page
    assert "All systems operational" not in page


def test_overview_says_all_good_only_when_everything_is_operational(client, site, admin):
    set_component_status(site["api"], status=ComponentStatus.OPERATIONAL, actor=admin)
    set_component_status(site["webhooks"], status=ComponentStatus.OPERATIONAL, actor=admin)
    assert "All systems operational" in text_of(client.get("/"))


def test_overview_lists_active_incident_first_then_upcoming_maintenance(client, site):
    page = text_of(client.get("/"))
    assert page.index("Active incidents") < page.index("Сбой API") < page.index("Upcoming maintenance")
    assert page.index("Upcoming maintenance") < page.index("Database upgrade") < page.index('id="components"')
    assert "Webhooks delayed" not in page[: page.index('id="components"')]  # resolved is history, not news


def test_overview_shows_components_in_groups_with_icon_and_text(client, site):
    page = text_of(client.get("/"))
    page = page[page.index('id="components"') :]
    assert (
        page.index(">Core<")
        < page.index("Public API")
        < page.index(">Delivery<")
        < page.index("Webhook delivery")
    )
    assert re.search(
        r'class="badge status-major_outage"><span class="icon" data-icon="✕" aria-hidden="true"></span> Major outage',
        page,
    )


def test_overview_shows_live_metric_value_with_unit_and_age(client, site):
    measured_at = Metric.objects.get(name__en="Webhook delivery delay").latest_at
    with time_machine.travel(measured_at + dt.timedelta(seconds=40), tick=False):
        page = text_of(client.get("/"))
    assert "Webhook delivery delay" in page
    assert "1.8\u00a0sec" in page
    assert "40 seconds ago" in page


def test_overview_draws_sparkline_and_uptime_bars_with_text_alternatives(client, site):
    page = text_of(client.get("/"))
    assert re.search(
        r'<svg class="sparkline"[^>]*role="img" aria-label="Webhook delivery delay over the last 24 hours',
        page,
    )
    assert re.search(r'<ol class="days" aria-label="Webhook delivery, last 90 days: [\d.]+ % uptime', page)
    # The day of the past incident says its worst status and its time down, leads to that day's
    # history, and lists the incident beside it for the day's popover.
    assert (
        '<li class="status-partial_outage"><a href="/history/?from=2026-03-07&amp;to=2026-03-07'
        '&amp;component=webhook-delivery" tabindex="-1">Mar 7, 2026: Partial outage; down for 3 hours; 1 incident</a>'
        f'<ul hidden><li><a href="/incidents/{site["past"].slug}/">Webhooks delayed</a></li></ul></li>'
        in page
    )


def test_page_language_follows_prefix_and_marks_fallback(client, site):
    page = text_of(client.get("/ru/"))
    assert '<html lang="ru">' in page
    assert "Публичный API" in page
    # English content shown on the Russian page is marked, and carries its own lang.
    english = text_of(client.get("/"))
    assert "This update is shown in Russian, its original language." in english
    assert 'class="prose" lang="ru"' in english


def test_accept_language_chooses_the_language_without_prefix(client, site):
    page = text_of(client.get("/", headers={"accept-language": "nb"}))
    assert '<html lang="nb">' in page
    assert "Levering" in page
    assert '<link rel="alternate" hreflang="ru" href="http://127.0.0.1:8000/ru/">' in page
    assert '<link rel="alternate" hreflang="nb" href="http://127.0.0.1:8000/nb/">' in page


@pytest.mark.parametrize("language", ["ru", "es", "nb"])
@pytest.mark.parametrize("path", ["/", "/history/", "/uptime/", "/maintenance/", "/components/public-api/"])
def test_every_page_answers_in_every_language(client, site, language, path):
    response = client.get(f"/{language}{path}")
    assert response.status_code == 200
    page = text_of(response)
    assert f'<html lang="{language}">' in page
    assert f'href="/{language}/history/"' in page  # links stay in the language


def test_language_switcher_links_and_hreflang_alternates(client, site):
    page = text_of(client.get("/history/"))
    for code, path in (
        ("en", "/history/"),
        ("ru", "/ru/history/"),
        ("es", "/es/history/"),
        ("nb", "/nb/history/"),
    ):
        assert f'<link rel="alternate" hreflang="{code}" href="http://127.0.0.1:8000{path}">' in page
    assert 'href="/language/ru/?next=%2Fru%2Fhistory%2F"' in page


def test_choosing_english_sticks_over_accept_language(client, site):
    response = client.get("/language/en/?next=/history/")
    assert response.status_code == 302 and response["Location"] == "/history/"
    page = text_of(client.get("/history/", headers={"accept-language": "ru"}))
    assert '<html lang="en">' in page


def test_language_choice_refuses_foreign_redirects(client, db):
    response = client.get("/language/ru/?next=https://evil.example/")
    assert response["Location"] == "/"


def test_incident_page_has_timeline_newest_first_and_affected_components(client, site):
    page = text_of(client.get(f"/incidents/{site['past'].slug}/"))
    assert (
        page.index("Delivery is back to normal.")
        < page.index("A queue was stuck.")
        < page.index("investigating</strong> delays")
    )
    assert "Affected components" in page and 'href="/components/webhook-delivery/"' in page
    assert "Impact" in page and "Major" in page


def test_incident_times_are_in_the_page_zone_with_utc_for_machines(client, site):
    page = text_of(client.get(f"/incidents/{site['past'].slug}/"))
    assert (
        '<time datetime="2026-03-07T11:00:00Z" data-local="datetime">Mar 7, 2026, 12:00 GMT+01:00</time>'
        in page
    )
    assert (
        '<time datetime="2026-03-07T10:00:00Z" data-local="datetime">Mar 7, 2026, 11:00 GMT+01:00</time>'
        in page
    )


def test_incident_page_marks_backdated_updates(client, site):
    page = text_of(client.get(f"/incidents/{site['past'].slug}/"))
    assert page.count("Written after the fact") == 1
    assert (
        'Written after the fact; posted at <time datetime="2026-03-07T12:00:00Z" data-local="datetime">'
        in page
    )


def test_incident_page_in_russian_shows_translation_and_marks_the_rest(client, site):
    page = text_of(client.get(f"/ru/incidents/{site['past'].slug}/"))
    assert '<html lang="ru">' in page
    assert "Очередь застряла." in page
    assert 'class="prose" lang="en"' in page  # the English-only updates


def test_incident_page_shows_published_postmortem_and_public_action_items(client, site):
    page = text_of(client.get(f"/incidents/{site['past'].slug}/"))
    assert "Postmortem" in page
    assert page.index("Summary") < page.index("A stuck queue delayed webhooks.") < page.index("Root cause")
    assert "Alert on queue age" in page and "Platform team" in page
    assert "4th quarter 2025" in page
    assert "overdue" in page
    assert "Secret internal follow-up" not in page


def test_draft_postmortem_stays_private(client, site, admin):
    from incidents.lifecycle.postmortems import unpublish_postmortem

    unpublish_postmortem(site["past"].postmortem, actor=admin)
    page = text_of(client.get(f"/incidents/{site['past'].slug}/"))
    assert "A stuck queue delayed webhooks." not in page


def test_draft_incident_is_not_found(client, site, admin):
    draft = declare_incident(
        DeclareIncident(title="Probe breach", language="en", body="auto", publish=False), actor=admin
    )
    assert client.get(f"/incidents/{draft.slug}/").status_code == 404
    assert "Probe breach" not in text_of(client.get("/history/"))


def test_component_page_charts_each_metric_with_thresholds(client, site):
    page = text_of(client.get("/components/webhook-delivery/"))
    for period in ("Last 24 hours", "Last 7 days", "Last 90 days"):
        assert period in page
    assert page.count('class="threshold status-degraded_performance"') == 3
    assert "Degraded performance 60.0\u00a0sec" in page
    assert (
        'Major outage 15\u00a0min <span class="icon" data-icon="↑" aria-hidden="true"></span>' in page
    )  # above the scale: named, not drawn; 900 s read in minutes
    assert "latest 1.6\u00a0sec; limit 60.0\u00a0sec" in page  # the text alternative
    assert "Webhooks delayed" in page  # its incidents
    assert 'type="application/atom+xml"' in page and "/components/webhook-delivery/history.atom" in page


def test_history_groups_by_month_and_filters_by_component(client, site, admin):
    with time_machine.travel(dt.datetime(2026, 1, 15, 10, tzinfo=dt.UTC)):
        declare_incident(DeclareIncident(title="January email trouble", language="en", body="x"), actor=admin)
    page = text_of(client.get("/history/"))
    assert page.index("March 2026") < page.index("Webhooks delayed") < page.index("January 2026")
    assert page.index("January 2026") < page.index("January email trouble")
    filtered = text_of(client.get("/history/?component=webhook-delivery"))
    assert "Webhooks delayed" in filtered and "Сбой API" not in filtered


def test_history_paginates(client, site, settings, admin):
    settings.PUBLIC_HISTORY_PAGE_SIZE = 1  # the past and the current incident
    first = text_of(client.get("/history/"))
    assert "Page 1 of 2" in first and 'rel="next" href="?page=2"' in first
    second = text_of(client.get("/history/?page=2"))
    assert "Page 2 of 2" in second


@pytest.mark.parametrize(
    "query",
    ["?page=-1", "?page=0", "?page=abc", "?page=99999", "?component=nope", "?component=%00", "?page=1e9"],
)
def test_history_answers_bad_parameters_without_an_error(client, site, query):
    response = client.get(f"/history/{query}")
    assert response.status_code == 200


def test_unknown_component_filter_is_said_to_the_reader(client, site):
    assert "There is no component by that name" in text_of(client.get("/history/?component=nope"))


# "Page not found" is also in Django's own catalogs, so it is translated before ours ship.
@pytest.mark.parametrize(
    ("prefix", "text", "lang"),
    [
        ("", "Page not found", "en"),
        ("/ru", "Страница не найдена", "ru"),
        ("/es", "Página no encontrada", "es"),
        ("/nb", "Fant ikke siden", "nb"),
    ],
)
@pytest.mark.parametrize("path", ["/incidents/no-such-incident/", "/components/no-such-component/"])
def test_unknown_incident_or_component_is_a_404_page_in_that_language(client, site, prefix, text, lang, path):
    response = client.get(prefix + path)
    assert response.status_code == 404
    page = text_of(response)
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{text}</h1>" in page


def test_unknown_language_prefix_is_a_404_not_an_error(client, site):
    assert client.get("/xx/").status_code == 404
    assert client.get("/xx/history/").status_code == 404
    assert client.get("/language/xx/").status_code == 404


def test_unknown_component_feed_is_a_404(client, site):
    assert client.get("/components/nope/history.atom").status_code == 404


def test_uptime_page_states_the_formula_and_shows_percent_per_month(client, site):
    page = text_of(client.get("/uptime/"))
    assert "Uptime = (time in the month − time in partial or major outage) ÷ time in the month." in page
    assert "Degraded performance counts as up" in page
    assert "March 2026" in page and "January 2026" in page
    assert re.search(r"<strong>\d+\.\d{2} %</strong>", page)


def test_maintenance_page_lists_upcoming_and_past_windows(client, site, admin):
    with time_machine.travel(timezone.now() - dt.timedelta(days=20)):
        old = schedule_maintenance(
            ScheduleMaintenance(
                title="Old network work",
                language="en",
                body="x",
                scheduled_for=timezone.now(),
                scheduled_until=timezone.now() + dt.timedelta(hours=1),
            ),
            actor=admin,
        )
    post_update(old, PostUpdate(status="completed", body={"en": "done"}, language="en"), actor=admin)
    page = text_of(client.get("/maintenance/"))
    assert (
        page.index("Upcoming and in progress")
        < page.index("Database upgrade")
        < page.index("Past maintenance")
    )
    assert page.index("Past maintenance") < page.index("Old network work")


@pytest.mark.parametrize("path", ["/", "/history/", "/uptime/", "/maintenance/", "/components/public-api/"])
def test_every_page_works_without_javascript_and_has_landmarks(client, site, path):
    page = text_of(client.get(path))
    # Scripts only add to a page served whole: none blocks rendering or is needed to read it.
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert "src=" not in tag or " defer" in tag, tag
    assert '<main id="main">' in page and "<header" in page and "<nav" in page
    assert page.count("<h1") == 1


def test_fallback_note_names_the_language_in_the_page_language(client, site):
    page = text_of(client.get(f"/es/incidents/{site['current'].slug}/"))
    assert "ruso" in page  # "Russian" as Spanish readers call it (the sentence comes with the catalog)
    assert 'class="prose" lang="ru"' in page


@pytest.mark.parametrize(
    "header", ["zz", "*", "en-US,en;q=0.9", "ru-RU", "nb-NO,no;q=0.8", "x" * 300, ";;;q="]
)
def test_odd_accept_language_headers_never_fail(client, site, header):
    response = client.get("/", headers={"accept-language": header})
    assert response.status_code == 200
