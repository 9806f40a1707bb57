"""Postmortems modelled on real published ones (Russian, Spanish, Norwegian Bokmål): minute-scale
delays, records years old, each declared with its components' statuses and no first text, as
their authors enter them through /api/v1/. Every page, feed and mail shows what the authors wrote
and nothing else: no timeline entry of its own, the records' own zones, units, dates and
publication times, one language note per section."""

import datetime as dt
import html
import re
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime

import pytest
import time_machine
from django.core import mail
from rest_framework.test import APIClient

from incidents.channels import outbox
from incidents.models import Component, IncidentUpdate, Subscriber, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
NNBSP = "\u202f"


@pytest.fixture
def api(admin):
    _token, secret = issue_token(admin, name="postmortems", scope=TokenScope.READ_WRITE, actor=admin)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


@pytest.fixture
def notifications(db):
    return Component.objects.create(
        slug="notifications",
        name={"en": "Notifications", "ru": "Уведомления", "es": "Notificaciones", "nb": "Varsler"},
        position=1,
    )


def ok(response, status=200) -> dict:
    assert response.status_code == status, response.content.decode()
    return response.json()


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def timeline(html_page: str) -> str:
    return html_page.split('id="updates"')[1].split("</ol>")[0]


RECORDS = {
    # A payment notifications queue in Moscow, March 2019: 47 minutes, delays up to 17 minutes.
    "ru": {
        "title": "Задержка уведомлений о платежах",
        "zone": "Europe/Moscow",
        "start": "2019-03-18T14:05:00+03:00",
        "status": "degraded_performance",
        "updates": [
            ("identified", "2019-03-18T14:20:00+03:00", "Очередь уведомлений растёт: задержка до 17 мин."),
            ("monitoring", "2019-03-18T14:40:00+03:00", "Задержка сократилась до 2 мин, следим."),
        ],
        "resolved": ("2019-03-18T14:52:00+03:00", "Уведомления доставляются без задержки."),
        "summary": "18 марта с 14:05 до 14:52 уведомления о платежах приходили с задержкой до 17 минут.",
        "published_at": "2019-03-20T11:30:00+03:00",
    },
    # Transactional mail from Madrid, November 2020: 51 minutes, mail up to 38 minutes late.
    "es": {
        "title": "Retrasos en el envío de correos",
        "zone": "Europe/Madrid",
        "start": "2020-11-03T09:12:00+01:00",
        "status": "partial_outage",
        "updates": [
            ("identified", "2020-11-03T09:30:00+01:00", "Los correos salen con hasta 38 min de retraso."),
        ],
        "resolved": ("2020-11-03T10:03:00+01:00", "La cola está vacía; los correos salen al momento."),
        "summary": "El 3 de noviembre, de 9:12 a 10:03, los correos salieron con hasta 38 minutos de retraso.",
        "published_at": "2020-11-05T16:45:00+01:00",
    },
    # Text message alerts in Oslo, February 2018: 33 minutes, alerts up to 12 minutes late.
    "nb": {
        "title": "Forsinkede SMS-varsler",
        "zone": "Europe/Oslo",
        "start": "2018-02-06T07:58:00+01:00",
        "status": "degraded_performance",
        "updates": [
            ("identified", "2018-02-06T08:10:00+01:00", "SMS-varsler kommer opptil 12 min for sent."),
        ],
        "resolved": ("2018-02-06T08:31:00+01:00", "Varslene går som normalt igjen."),
        "summary": "6. februar mellom 07:58 og 08:31 kom SMS-varsler opptil 12 minutter for sent.",
        "published_at": "2018-02-07T13:15:00+01:00",
    },
}

# What each record's pages say: the start in full with its weekday, the publication time with
# its zone, the duration in the language's own unit.
STARTED = {
    "ru": f"понедельник, 18 марта 2019{NNBSP}г., 14:05 GMT+03:00",
    "es": "martes, 3 de noviembre de 2020, 9:12 GMT+01:00",
    "nb": "tirsdag 6. februar 2018, 07:58 GMT+01:00",
}
PUBLISHED = {
    "ru": f"20 мар. 2019{NNBSP}г., 11:30 GMT+03:00",
    "es": "5 nov 2020, 16:45 GMT+01:00",
    "nb": "7. feb. 2018, 13:15 GMT+01:00",
}
DURATION = {"ru": "47 мин", "es": "51 min", "nb": "33 min"}
DURATION_LABEL = {"ru": "Длительность: 47 мин", "es": "Duración: 51 min", "nb": "Varighet: 33 min"}


def enter_record(api, component: Component, language: str) -> dict:
    """Declared with the component's status and no text, then the written updates, the
    resolution and the published postmortem: as the author entered it."""
    record = RECORDS[language]
    created = ok(
        api.post(
            "/api/v1/incidents/",
            {
                "title": record["title"],
                "language": language,
                "impact": "minor",
                "components": [{"component": component.public_id, "status": record["status"]}],
                "started_at": record["start"],
                "display_time_zone": record["zone"],
                "backfilled": True,
            },
            format="json",
        ),
        201,
    )
    url = f"/api/v1/incidents/{created['id']}/"
    for status, at, body in record["updates"]:
        ok(
            api.post(
                f"{url}updates/", {"status": status, "language": language, "body": body, "display_at": at}
            ),
            201,
        )
    at, body = record["resolved"]
    ok(api.post(f"{url}resolve/", {"language": language, "body": body, "display_at": at}, format="json"))
    postmortem = ok(
        api.post(
            "/api/v1/postmortems/",
            {"incident": created["id"], "language": language, "sections": {"summary": record["summary"]}},
            format="json",
        ),
        201,
    )
    ok(
        api.post(
            f"/api/v1/postmortems/{postmortem['id']}/publish/",
            {"published_at": record["published_at"]},
            format="json",
        )
    )
    return ok(api.get(url))


def written(language: str) -> list[tuple[str, str]]:
    """(time shown, text) of each update the author wrote, oldest first."""
    record = RECORDS[language]
    return [(at, body) for _status, at, body in record["updates"]] + [record["resolved"]]


@pytest.fixture
def records(api, notifications) -> dict[str, dict]:
    return {language: enter_record(api, notifications, language) for language in RECORDS}


@pytest.mark.parametrize("language", RECORDS)
def test_the_api_holds_only_the_updates_the_author_wrote(records, language):
    record = records[language]

    assert sorted(update["body"][language] for update in record["updates"]) == sorted(
        text for _at, text in written(language)
    )
    assert record["status"] == "resolved" and record["backfilled"] is True


@pytest.mark.parametrize("language", RECORDS)
def test_the_incident_page_shows_each_written_update_and_no_other_entry(records, client, language):
    html_page = page(client, f"/{language}/incidents/{records[language]['slug']}/")
    entries = timeline(html_page)

    assert entries.count("<li id=") == len(written(language))
    for _at, text in written(language):
        assert text in entries
    # The declaration's status travels with the first written update.
    first = entries.split("<li id=")[-1]
    assert f"status-{RECORDS[language]['status']}" in first


@pytest.mark.parametrize("language", RECORDS)
def test_the_incident_page_names_its_day_in_full_with_its_own_zone_and_duration(records, client, language):
    html_page = page(client, f"/{language}/incidents/{records[language]['slug']}/")

    assert STARTED[language] in html_page
    assert f'<dd class="duration">{DURATION[language]}</dd>' in html_page


@pytest.mark.parametrize("language", RECORDS)
def test_the_postmortem_shows_when_it_was_published_with_time_and_zone(records, client, language):
    html_page = page(client, f"/{language}/incidents/{records[language]['slug']}/")
    published = html_page.split("postmortem-published")[1].split("</p>")[0]

    assert published.endswith(f">{PUBLISHED[language]}</time>")
    assert RECORDS[language]["summary"] in html_page


@pytest.mark.parametrize("language", RECORDS)
def test_the_history_lists_each_record_with_its_own_duration(records, client, language):
    html_page = page(client, f"/{language}/history/")

    assert RECORDS[language]["title"] in html_page
    assert f'<span class="duration">{DURATION[language]}</span>' in html_page


def atom_entries(client, language: str, title: str) -> list[ET.Element]:
    feed = ET.fromstring(client.get(f"/{language}/history.atom").content)
    return [entry for entry in feed.iter(f"{ATOM}entry") if entry.findtext(f"{ATOM}title").startswith(title)]


@pytest.mark.parametrize("language", RECORDS)
def test_atom_entries_are_the_written_updates_in_their_language_updated_when_they_happened(
    records, client, language
):
    entries = atom_entries(client, language, RECORDS[language]["title"])

    assert [entry.get(XML_LANG) for entry in entries] == [language] * len(written(language))
    assert sorted(dt.datetime.fromisoformat(entry.findtext(f"{ATOM}updated")) for entry in entries) == [
        dt.datetime.fromisoformat(at) for at, _text in written(language)
    ]
    assert all(DURATION_LABEL[language] in entry.findtext(f"{ATOM}summary") for entry in entries[:1])
    assert all("Duration" not in entry.findtext(f"{ATOM}summary") for entry in entries)


@pytest.mark.parametrize("language", RECORDS)
def test_rss_items_are_the_written_updates_dated_when_they_happened(records, client, language):
    channel = ET.fromstring(client.get(f"/{language}/history.rss").content).find("channel")
    items = [
        item for item in channel.iter("item") if item.findtext("title").startswith(RECORDS[language]["title"])
    ]

    assert sorted(parsedate_to_datetime(item.findtext("pubDate")) for item in items) == [
        dt.datetime.fromisoformat(at) for at, _text in written(language)
    ]


def test_a_russian_record_read_in_english_has_one_language_note_per_section(records, client):
    html_page = page(client, f"/incidents/{records['ru']['slug']}/")

    assert re.findall(r'<p class="fallback">([^<]*)</p>', html_page) == [
        "This title is shown in Russian, its original language.",
        "These updates are shown in Russian, the language they were written in.",
        "This postmortem is shown in Russian, the language it was written in.",
    ]


# --- A live incident, declared the same way: the overview and the mail say only what was written

LIVE_TEXT = "Varsler kommer opptil 9 min for sent. Vi feilsøker køen."


@pytest.fixture
def subscriber(db):
    return confirm_subscription(subscribe(email="vakt@example.no", language="nb", send_mail=False).subscriber)


@pytest.fixture
def live(api, notifications, subscriber):
    declared = ok(
        api.post(
            "/api/v1/incidents/",
            {
                "title": "Forsinkede varsler",
                "language": "nb",
                "impact": "minor",
                "components": [{"component": notifications.public_id, "status": "degraded_performance"}],
            },
            format="json",
        ),
        201,
    )
    outbox.deliver_due(seconds=5)
    told_before_a_text = len(mail.outbox)
    ok(
        api.post(
            f"/api/v1/incidents/{declared['id']}/updates/",
            {"status": "identified", "language": "nb", "body": LIVE_TEXT},
            format="json",
        ),
        201,
    )
    outbox.deliver_due(seconds=5)
    return declared, told_before_a_text


def test_a_live_incident_mails_only_its_written_update_with_the_declared_status(live):
    declared, told_before_a_text = live
    [message] = mail.outbox
    text = message.body

    assert told_before_a_text == 0
    assert LIVE_TEXT in text
    assert "- Varsler: Redusert ytelse" in text
    assert IncidentUpdate.objects.filter(incident__public_id=declared["id"]).count() == 1


def test_the_overview_shows_the_live_incident_with_its_written_update(live, client):
    html_page = page(client, "/nb/")

    assert "Forsinkede varsler" in html_page and LIVE_TEXT in html_page


# --- "Follow the incident" in a mail follows it, after one click


def follow_link(message) -> str:
    return re.search(r"https?://\S+/subscribe/follow/\S+/", message.body).group(0)


def test_follow_the_incident_in_a_mail_asks_once_then_follows(live, client, subscriber):
    declared, _told = live
    path = follow_link(mail.outbox[0]).split("://", 1)[1].split("/", 1)[1]

    shown = client.get(f"/{path}")
    assert shown.status_code == 200 and 'type="submit"' in shown.content.decode()
    assert not Subscriber.objects.filter(incident__public_id=declared["id"]).exists()  # a GET follows nothing

    followed = client.post(f"/{path}")
    follow = Subscriber.objects.get(incident__public_id=declared["id"])

    assert followed.status_code == 200 and "vakt@example.no" in followed.content.decode()
    assert (follow.email, follow.language, follow.is_active) == ("vakt@example.no", "nb", True)
    assert client.post(f"/{path}").status_code == 200
    assert Subscriber.objects.filter(incident__public_id=declared["id"]).count() == 1


def test_a_follow_link_with_a_changed_token_follows_nothing(live, client):
    path = follow_link(mail.outbox[0]).split("://", 1)[1].split("/", 1)[1]
    tampered = path[:-3] + ("A" if path[-3] != "A" else "B") + path[-2:]

    assert client.post(f"/{tampered}").status_code == 404
    assert not Subscriber.objects.filter(incident__isnull=False).exists()


def test_a_follow_link_of_a_resolved_incident_follows_nothing(live, client, api):
    declared, _told = live
    path = follow_link(mail.outbox[0]).split("://", 1)[1].split("/", 1)[1]
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)):
        ok(api.post(f"/api/v1/incidents/{declared['id']}/resolve/", {"language": "nb", "body": "Løst."}))

    assert client.post(f"/{path}").status_code == 400
    assert not Subscriber.objects.filter(incident__isnull=False).exists()
