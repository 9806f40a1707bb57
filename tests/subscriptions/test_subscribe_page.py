"""The subscribe page as a visitor meets it: the site's own header and language, one section per
way to subscribe, each form on its own, and a follow action on open incidents only."""

import re

import pytest
from django.core import mail

from incidents.lifecycle.commands import ResolveIncident
from incidents.lifecycle.updates import resolve_incident
from incidents.models import ComponentGroup, Subscriber

pytestmark = pytest.mark.django_db

LANGUAGES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}


def forms_of(page: str) -> list[str]:
    return re.findall(r"<form method=\"post\".*?</form>", page, flags=re.S)


@pytest.fixture
def named(make_component, group):
    return make_component(
        "webhooks",
        group=group,
        name={
            "en": "Webhook delivery",
            "ru": "Доставка вебхуков",
            "es": "Entrega de webhooks",
            "nb": "Webhook-levering",
        },
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_in_the_sites_layout_and_the_pages_language(client, named, language):
    response = client.get(f"{LANGUAGES[language]}/subscribe/")

    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}"' in page
    assert 'class="site-header"' in page and 'class="languages"' in page  # header, nav, switcher
    expected = named.name[language]
    assert re.search(rf"<label[^>]*>\s*<input[^>]*value=\"webhooks\"[^>]*>\s*{re.escape(expected)}", page)


def test_the_address_is_an_email_field_browsers_can_fill(client, named):
    page = client.get("/subscribe/").content.decode()
    assert re.search(r'<input type="email" name="email" autocomplete="email"[^>]*id="email-email"', page)
    assert re.search(r'<input type="email" name="email" autocomplete="email"[^>]*id="webhook-email"', page)


def test_email_and_webhook_are_two_separate_forms(client, named):
    page = client.get("/subscribe/").content.decode()
    email_form, webhook_form, *_chats = forms_of(page)
    assert 'action="/subscribe/#email"' in email_form and "endpoint_url" not in email_form
    assert 'action="/subscribe/webhook/#webhook"' in webhook_form and 'name="endpoint_url"' in webhook_form
    assert 'inputmode="url"' in webhook_form


def test_sections_are_reached_by_links_without_javascript(client, named):
    page = client.get("/subscribe/").content.decode()
    for section in ("email", "webhook", "feeds"):
        assert f'<a href="#{section}">' in page
        assert f'<section id="{section}"' in page
    feeds = page[page.index('<section id="feeds"') :]
    for href in ("/history.atom", "/history.rss", "/maintenance.ics"):
        assert f'href="{href}"' in feeds


def test_an_email_subscription_leads_to_check_your_inbox_in_the_site_layout(
    client, named, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/ru/subscribe/", {"email": "reader@example.com", "language": "ru"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "reader@example.com" in page and 'class="site-header"' in page
    assert Subscriber.objects.get().channel == "email"
    assert len(mail.outbox) == 1


def test_a_webhook_needs_its_url(client, named):
    response = client.post("/subscribe/webhook/", {"email": "ops@example.com", "language": "en"})

    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="webhook-endpoint_url_error"' in page or "This field is required" in page
    assert not Subscriber.objects.exists()


def test_a_url_sent_to_the_email_form_makes_no_webhook(client, named):
    client.post(
        "/subscribe/",
        {"email": "r@example.com", "language": "en", "endpoint_url": "https://hooks.example.com/"},
    )
    assert Subscriber.objects.get().channel == "email"


def test_the_webhook_address_on_its_own_shows_the_page_at_its_section(client):
    response = client.get("/subscribe/webhook/")
    assert response.status_code == 302 and response["Location"] == "/subscribe/#webhook"


def test_an_open_incident_offers_to_follow_it_and_a_resolved_one_does_not(
    client, declare, responder, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        incident = declare()
    page = client.get(f"/incidents/{incident.slug}/").content.decode()
    assert f'<a class="button" href="/subscribe/incidents/{incident.slug}/">Follow this incident</a>' in page

    follow = client.get(f"/ru/subscribe/incidents/{incident.slug}/").content.decode()
    assert 'class="site-header"' in follow and 'type="email"' in follow

    with django_capture_on_commit_callbacks(execute=True):
        resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    assert "/subscribe/incidents/" not in client.get(f"/incidents/{incident.slug}/").content.decode()


def component_groups(page: str) -> dict[str, list[str]]:
    """The email form's components by the legend of the group they are listed under."""
    form = forms_of(page)[0]
    return {
        legend: re.findall(r'value="([^"]+)"', body)
        for legend, body in re.findall(
            r'<fieldset class="choice-group"><legend>([^<]+)</legend>(.*?)</fieldset>', form, flags=re.S
        )
    }


@pytest.mark.parametrize(("language", "core"), [("en", "Core"), ("nb", "Kjerne")])
def test_components_are_listed_under_their_groups_names_in_the_pages_language(
    client, make_component, named, language, core
):
    later = ComponentGroup.objects.create(slug="later", name={"en": "Delivery"}, position=2)
    make_component("mail", group=later, name={"en": "Email delivery"})
    make_component("sms", group=later, name={"en": "SMS"})
    make_component("status-site", name={"en": "Status site"})

    groups = component_groups(client.get(f"{LANGUAGES[language]}/subscribe/").content.decode())

    other = {"en": "Other components", "nb": "Andre komponenter"}[language]
    assert groups[core] == ["webhooks"]
    assert groups["Delivery"] == ["mail", "sms"]
    assert groups[other] == ["status-site"]
    assert list(groups) == [core, "Delivery", other]  # page order, as on the overview


def test_components_of_one_group_are_one_plain_list(client, named, make_component, group):
    make_component("mail", group=group, name={"en": "Email delivery"})

    page = client.get("/subscribe/").content.decode()

    assert component_groups(page) == {}
    assert 'value="webhooks"' in forms_of(page)[0] and 'value="mail"' in forms_of(page)[0]
