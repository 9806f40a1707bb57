"""The postmortem editor's key figures: rows of label, value and unit, saved per language."""

import pytest

from incidents.models import AuditEvent, KeyFigure

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(responder):
    return logged_in(responder)


def rows(*figures, total: int = 3) -> dict:
    data = {"figures-TOTAL_FORMS": str(total), "figures-INITIAL_FORMS": "0"}
    for index, (label, value, unit) in enumerate(figures):
        data |= {
            f"figures-{index}-label": label,
            f"figures-{index}-value": value,
            f"figures-{index}-unit": unit,
        }
    return data


def test_the_editor_saves_figures_and_skips_empty_rows(client, postmortem):
    url = f"/editor/incidents/{postmortem.incident.pk}/postmortem/en/key-figures/"
    response = client.post(
        url, rows(("Peak webhook delay", "1380", "duration"), ("Timeout", "10", "duration"))
    )
    assert response.status_code == 302
    assert [(f.label, f.value, f.unit) for f in KeyFigure.objects.order_by("position")] == [
        ({"en": "Peak webhook delay"}, 1380, "duration"),
        ({"en": "Timeout"}, 10, "duration"),
    ]
    assert AuditEvent.objects.filter(action="postmortem.key_figures_changed").count() == 1
    page = client.get(f"/editor/incidents/{postmortem.incident.pk}/postmortem/").content.decode()
    assert 'value="Peak webhook delay"' in page


def test_a_translation_tab_adds_labels(client, postmortem):
    base = f"/editor/incidents/{postmortem.incident.pk}/postmortem/"
    client.post(f"{base}en/key-figures/", rows(("Peak webhook delay", "1380", "duration")))
    client.post(f"{base}ru/key-figures/", rows(("Пиковая задержка", "1380", "duration")))
    assert KeyFigure.objects.get().label == {"en": "Peak webhook delay", "ru": "Пиковая задержка"}


@pytest.mark.parametrize(
    "figure",
    [("Delay", "-5", "duration"), ("Delay", "nan", "duration"), ("Delay", "5", ""), ("", "5", "count")],
)
def test_a_bad_figure_is_refused_and_kept(client, postmortem, figure):
    url = f"/editor/incidents/{postmortem.incident.pk}/postmortem/en/key-figures/"
    response = client.post(url, rows(figure))
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not KeyFigure.objects.exists()


def test_more_than_twenty_figures_are_refused(client, postmortem):
    url = f"/editor/incidents/{postmortem.incident.pk}/postmortem/en/key-figures/"
    response = client.post(url, rows(*[(f"F{i}", "1", "count") for i in range(21)], total=21))
    assert response.status_code == 200
    assert not KeyFigure.objects.exists()
