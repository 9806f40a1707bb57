import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_home_page_lists_components_with_their_status_and_live_value(client, component, latency_metric):
    from incidents.services.metrics import record_sample

    record_sample(latency_metric, value=1.8)
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Webhook delivery" in html
    assert "Operational" in html
    assert "1.8\u00a0s" in html


@pytest.mark.django_db
def test_home_page_is_shown_in_the_language_of_the_prefix(client, component):
    response = client.get("/ru/")
    assert response.status_code == 200
    assert 'lang="ru"' in response.content.decode()
    assert "Доставка вебхуков" in response.content.decode()


@pytest.mark.django_db
def test_admin_login_page_answers(client):
    assert client.get("/admin/login/").status_code == 200


def test_migrations_are_complete(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_overview_works_without_any_component(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "All systems operational" in response.content.decode()
