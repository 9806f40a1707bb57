"""Declaring in seconds: initial status, proposed impact, templates, default messages, notify off."""

import re

import pytest

from incidents.lifecycle.proposals import default_update_text, proposed_impact
from incidents.models import ComponentGroup, Delivery, Incident, UpdateTemplate
from incidents.services.subscriptions import confirm_subscription, subscribe

from .conftest import logged_in

DECLARE = "/editor/incidents/new/"


@pytest.fixture
def client(responder):
    return logged_in(responder)


def declare(client, **fields):
    data = {"title": "Checkout is failing", "language": "en", "impact": "proposed", "publish": "on"}
    data.update(fields)
    response = client.post(DECLARE, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Incident.objects.get()


@pytest.fixture
def subscriber(api):
    return confirm_subscription(
        subscribe(email="ops@example.com", language="en", components=[api]).subscriber
    )


@pytest.mark.django_db
def test_the_initial_status_chosen_is_kept(client):
    incident = declare(client, status="identified", body="Found it.")
    assert incident.status == "identified"
    assert incident.updates.get().status == "identified"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("statuses", "impact"),
    [
        ({"public-api": "major_outage", "webhook-delivery": "degraded_performance"}, "critical"),
        ({"public-api": "partial_outage"}, "major"),
        ({"public-api": "degraded_performance", "webhook-delivery": "under_maintenance"}, "minor"),
        ({}, "minor"),
    ],
)
def test_a_proposed_impact_follows_the_worst_component_status(client, api, webhooks, statuses, impact):
    fields = {"affected": list(statuses), **{f"status_{slug}": status for slug, status in statuses.items()}}
    assert declare(client, **fields).impact == impact


@pytest.mark.django_db
def test_an_impact_chosen_by_hand_wins_over_the_proposal(client, api):
    incident = declare(
        client, impact="none", affected=["public-api"], **{"status_public-api": "major_outage"}
    )
    assert incident.impact == "none"


def test_the_proposal_is_one_rule():
    assert proposed_impact(["operational", "major_outage"]) == "critical"
    assert proposed_impact(["under_maintenance"]) == "none"


@pytest.mark.django_db
def test_the_form_offers_the_proposal_and_investigating_first(client):
    page = client.get(DECLARE).content.decode()
    assert '<option value="proposed" selected>' in page
    assert '<option value="investigating" selected>' in page
    assert 'id="form-aids" type="application/json"' in page


@pytest.mark.django_db
def test_a_template_fills_the_declare_form_without_javascript(client, api, webhooks):
    template = UpdateTemplate.objects.create(
        name="API errors",
        language="en",
        status="identified",
        title={"en": "Elevated API errors", "nb": "Flere API-feil"},
        body={"en": "Some requests fail.", "nb": "Noen forespørsler feiler."},
        component_statuses={"public-api": "major_outage", "gone-component": "major_outage"},
    )
    page = client.get(f"{DECLARE}?template={template.pk}").content.decode()
    assert 'value="Elevated API errors"' in page
    assert "Some requests fail." in page
    assert '<option value="identified" selected>' in page
    assert 'name="affected" value="public-api"' in page and 'id="id_affected_0" checked' in page
    assert '<select name="status_public-api" id="id_status_public-api">' in page
    assert '<option value="major_outage" selected>' in page
    assert "Filled from “API errors”" in page


@pytest.mark.django_db
def test_a_template_is_used_in_the_editors_language(responder, api):
    template = UpdateTemplate.objects.create(
        name="API errors",
        language="en",
        title={"en": "API errors", "nb": "API-feil"},
        body={"en": "x", "nb": "y"},
    )
    client = logged_in(responder)
    client.cookies["django_language"] = "nb"
    page = client.get(f"{DECLARE}?template={template.pk}").content.decode()
    assert 'value="API-feil"' in page and '<option value="nb" selected>' in page


@pytest.mark.django_db
def test_an_unknown_template_leaves_the_form_empty(client):
    for bad in ("999", "abc", "-1"):
        response = client.get(f"{DECLARE}?template={bad}")
        assert response.status_code == 200 and "Filled from" not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "language"), [("investigating", "en"), ("monitoring", "nb"), ("identified", "ru")]
)
def test_an_empty_message_posts_the_default_of_the_status_in_the_incidents_language(client, status, language):
    incident = declare(client, status=status, language=language, body="  ")
    update = incident.updates.get()
    assert update.body == {language: default_update_text(status, language=language)}


def test_default_messages_are_translated():
    assert default_update_text("investigating", language="en") != default_update_text(
        "identified", language="en"
    )


@pytest.mark.django_db
def test_declaring_with_notify_off_writes_no_delivery(
    client, api, subscriber, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        incident = declare(
            client, body="Down.", affected=["public-api"], **{"status_public-api": "major_outage"}
        )
    assert incident.updates.get().deliver_notifications is False
    assert not Delivery.objects.exists()


@pytest.mark.django_db
def test_declaring_with_notify_on_writes_a_delivery_per_subscriber(
    client, api, subscriber, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        declare(
            client,
            body="Down.",
            deliver_notifications="on",
            affected=["public-api"],
            **{"status_public-api": "major_outage"},
        )
    assert Delivery.objects.filter(subscriber=subscriber, update__isnull=False).count() == 1


@pytest.mark.django_db
def test_the_message_field_says_it_is_markdown_and_has_a_preview(client):
    page = client.get(DECLARE).content.decode()
    assert "Markdown: **bold**" in page
    assert 'data-preview-for="id_body"' in page
    assert "<kbd>Ctrl</kbd> + <kbd>Enter</kbd>" in page


@pytest.mark.django_db
def test_components_are_listed_under_their_groups_in_page_order(client, make_component):
    edge = ComponentGroup.objects.create(slug="edge", name={"en": "Edge", "ru": "Периметр"}, position=2)
    core = ComponentGroup.objects.create(slug="core", name={"en": "Core"}, position=1)
    make_component("cdn", name={"en": "CDN"}, group=edge)
    make_component("api", name={"en": "Public API"}, group=core)
    make_component("docs", name={"en": "Docs"})

    page = client.get(DECLARE).content.decode()
    field = page[page.index('class="components-field"') : page.index("</fieldset>")]
    headings = re.findall(r'<th colspan="3" scope="colgroup">([^<]+)</th>', field)

    assert headings == ["Core", "Edge", "Other components"]
    assert field.index("Core") < field.index("Public API") < field.index("Edge") < field.index("CDN")
    assert field.index("Other components") < field.index("Docs")


@pytest.mark.django_db
def test_components_of_one_group_need_no_headings(client, api, webhooks):
    page = client.get(DECLARE).content.decode()
    assert 'scope="colgroup"' not in page and "Public API" in page
