"""The overview is drawn when what it shows changes; live figures are filled in on every request."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.models import Component, OverviewFrame, StatusMode
from incidents.services.components import save_component
from incidents.services.incidents import declare_incident
from incidents.services.metrics import record_sample

from .test_live_values import component_line, email_delay, measure, metric_text, squeeze

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frames_on(settings):
    settings.OVERVIEW_FRAME_SECONDS = 60


@pytest.fixture
def delay(admin):
    """Manual status mode: the component stays operational whatever its latency."""
    return email_delay(admin, StatusMode.MANUAL)


def drawn_at(language="en") -> dt.datetime:
    return OverviewFrame.objects.get(language=language).drawn_at


def test_a_new_sample_shows_on_the_next_request_without_drawing_the_page_again(client, delay):
    measure(delay, 1.8)
    assert "1.8\u00a0s" in metric_text(client)
    first_drawing = drawn_at()

    measure(delay, 2.4)
    now = metric_text(client)

    assert "2.4\u00a0s" in now and "1.8\u00a0s" not in now
    assert drawn_at() == first_drawing


def test_a_late_figure_is_said_on_the_next_request(client, delay):
    """A manual-mode component stays operational; its latency goes past the degraded threshold."""
    measure(delay, 12)
    assert "late" not in component_line(client)
    measure(delay, 23 * 60)
    assert "up, but 23 minutes late (Delivery delay)" in squeeze(component_line(client))


def test_a_published_incident_redraws_the_page(client, delay, admin, django_capture_on_commit_callbacks):
    client.get("/")
    with django_capture_on_commit_callbacks(execute=True):
        declare_incident(
            title="Emails are delayed",
            language="en",
            body="We are looking into it.",
            component_statuses={delay.component: "degraded_performance"},
            actor=admin,
        )
    assert "Emails are delayed" in client.get("/").content.decode()


def test_the_page_is_redrawn_after_its_time_even_without_changes(client, delay):
    client.get("/")
    first_drawing = drawn_at()
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=61)):
        client.get("/")
        assert drawn_at() > first_drawing


def test_each_language_has_its_own_frame(client, delay):
    client.get("/")
    assert 'lang="ru"' in client.get("/ru/").content.decode()
    assert set(OverviewFrame.objects.values_list("language", flat=True)) == {"en", "ru"}


def test_a_slot_written_in_a_name_is_shown_as_text_not_filled(client, delay, admin):
    save_component(
        Component(slug="sneaky", name={"en": f"Sneaky <!--live:metric:{delay.pk}-->"}), actor=admin
    )
    record_sample(delay, value=1.8)
    page = client.get("/").content.decode()
    assert "Sneaky &lt;!--live:metric:" in page
    assert page.count('<strong class="value">') == 1


def test_tracking_parameters_do_not_reach_the_drawn_links(client, delay):
    client.get("/?utm_source=mail")
    assert "utm_source" not in client.get("/").content.decode()


def test_a_filled_page_runs_one_query(client, delay, django_assert_max_num_queries):
    measure(delay, 1.8)
    client.get("/")
    with django_assert_max_num_queries(1):
        assert client.get("/").status_code == 200


def test_the_etag_changes_with_the_live_figures(client, delay):
    measure(delay, 1.8)
    etag = client.get("/")["ETag"]
    assert client.get("/", headers={"if-none-match": etag}).status_code == 304
    measure(delay, 2.4)
    assert client.get("/", headers={"if-none-match": etag}).status_code == 200
