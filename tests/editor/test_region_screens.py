"""The regions screen and a probe's regions: who may use them, what they refuse, what they record
in words, and the key shown once with the command that starts the region's worker."""

import re

import pytest
from django.test import Client

from incidents.models import AuditEvent, Probe, ProbeKind, ProbeRegion
from incidents.probes.sealing import region_key
from incidents.services.probes import save_probe

from .conftest import logged_in

pytestmark = pytest.mark.django_db

PERSONAS = ["anonymous", "outsider", "viewer", "responder", "admin"]
URL = "http://127.0.0.1:8150/health"


@pytest.fixture(autouse=True)
def _probe_settings(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    settings.PROBE_MIN_INTERVAL = 10


@pytest.fixture
def regions(db):
    return {name: ProbeRegion.objects.create(name=name) for name in ("eu-north", "us-east")}


@pytest.fixture
def probe(metric):
    return save_probe(
        Probe(name="API health", kind=ProbeKind.HTTP, metric=metric, url=URL, interval=30, timeout=5),
        actor=None,
    )


def probe_form(probe, **fields):
    return {
        "name": probe.name,
        "kind": "http",
        "metric": probe.metric_id,
        "enabled": "on",
        "url": URL,
        "config": "{}",
        "interval": 30,
        "connect_timeout": 3,
        "read_timeout": 5,
        "timeout": 5,
        **fields,
    }


def snapshot():
    return (
        list(ProbeRegion.objects.order_by("pk").values()),
        list(Probe.regions.through.objects.values_list("probe_id", "proberegion_id")),
        AuditEvent.objects.count(),
    )


def text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode())).strip()


ACTIONS = [
    ("region list", "get", lambda r: "/editor/regions/", None, 200),
    ("new region form", "get", lambda r: "/editor/regions/new/", None, 200),
    ("region page", "get", lambda r: f"/editor/regions/{r.pk}/", None, 200),
    ("add region", "post", lambda r: "/editor/regions/new/", {"name": "ap-south", "active": "on"}, 200),
    ("edit region", "post", lambda r: f"/editor/regions/{r.pk}/", {"name": "eu-north", "reference_url": "https://example.com/"}, 302),
    ("issue key", "post", lambda r: f"/editor/regions/{r.pk}/key/", {}, 200),
]  # fmt: skip


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_region_screens_follow_the_admin_role(clients, persona, action, regions):
    name, method, url, data, allowed_status = action
    target = url(regions["eu-north"])
    before = snapshot()
    client = clients[persona]
    response = client.get(target) if method == "get" else client.post(target, data)
    if persona == "admin":
        assert response.status_code == allowed_status, response.content[:2000]
        return
    if persona == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/editor/login/")
    else:
        assert response.status_code == 403
    assert snapshot() == before, "a refused request changed something"


def test_region_forms_need_the_csrf_token(admin, regions):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    before = snapshot()
    assert client.post("/editor/regions/new/", {"name": "ap-south", "active": "on"}).status_code == 403
    assert client.post(f"/editor/regions/{regions['eu-north'].pk}/key/").status_code == 403
    assert snapshot() == before


def test_adding_a_region_shows_its_key_once_with_the_workers_command(admin, settings):
    settings.REDIS_URL = "redis://:hunter2@broker.internal:6379/0"
    client = logged_in(admin)

    response = client.post("/editor/regions/new/", {"name": "ap-south", "active": "on"})

    region = ProbeRegion.objects.get(name="ap-south")
    key = region_key("ap-south", 1)
    page = text(response.content)
    assert key in page
    assert (
        f"REDIS_URL='redis://:<password>@broker.internal:6379/0' PROBE_REGION=ap-south "
        f"PROBE_REGION_KEY={key} celery -A statuspage worker -Q probes.ap-south"
    ) in response.content.decode().replace("&#x27;", "'").replace("&lt;", "<").replace("&gt;", ">")
    assert "hunter2" not in page
    assert key not in client.get(f"/editor/regions/{region.pk}/").content.decode()
    assert AuditEvent.objects.filter(action="probe_region.created", subject_id=str(region.pk)).exists()


def test_issuing_a_new_key_revokes_the_old_one(admin, regions):
    region = regions["us-east"]
    old = region_key("us-east", 1)

    response = logged_in(admin).post(f"/editor/regions/{region.pk}/key/")

    new = region_key("us-east", 2)
    assert new in response.content.decode() and old not in response.content.decode()
    assert ProbeRegion.objects.get(pk=region.pk).key_generation == 2
    page = text(logged_in(admin).get(f"/editor/regions/{region.pk}/").content)
    assert "New key issued for probe region us-east" in page


def test_a_bad_region_name_is_refused_on_the_form(admin, regions):
    before = snapshot()

    response = logged_in(admin).post("/editor/regions/new/", {"name": "EU North!", "active": "on"})

    assert response.status_code == 200
    assert "Lower-case letters, digits and inner hyphens" in text(response.content)
    assert snapshot() == before


def test_the_home_region_keeps_its_name_and_has_no_key(admin):
    home = ProbeRegion.objects.get(name="local")
    client = logged_in(admin)

    client.post(f"/editor/regions/{home.pk}/", {"name": "elsewhere", "active": "on"})
    response = client.post(f"/editor/regions/{home.pk}/key/")

    assert ProbeRegion.objects.get(pk=home.pk).name == "local"
    assert response.status_code == 302
    assert ProbeRegion.objects.get(pk=home.pk).key_generation == 1


def test_the_probe_form_offers_the_regions_and_says_what_none_means(admin, probe, regions):
    page = text(logged_in(admin).get(f"/editor/probes/{probe.pk}/").content)

    assert "Regions" in page and "eu-north" in page and "us-east" in page
    assert "None chosen: every active region" in page


def test_choosing_regions_on_the_probe_form_is_recorded_in_words(admin, probe, regions):
    client = logged_in(admin)

    response = client.post(f"/editor/probes/{probe.pk}/", probe_form(probe, regions=[regions["eu-north"].pk]))
    assert response.status_code == 302
    client.post(f"/editor/probes/{probe.pk}/", probe_form(probe, regions=[]))

    assert list(Probe.objects.get(pk=probe.pk).regions.all()) == []
    page = text(client.get(f"/editor/probes/{probe.pk}/").content)
    assert "Regions: every active region → eu-north" in page
    assert "Regions: eu-north → every active region" in page


def test_the_audit_trail_says_regions_in_the_editors_language(admin, probe, regions):
    client = logged_in(admin)
    client.post(f"/editor/probes/{probe.pk}/", probe_form(probe, regions=[regions["us-east"].pk]))
    client.cookies["django_language"] = "ru"

    page = text(client.get(f"/editor/probes/{probe.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content)

    assert "Регионы: все активные регионы → us-east" in page


def test_an_unknown_region_on_the_probe_form_is_refused(admin, probe, regions):
    before = snapshot()

    response = logged_in(admin).post(f"/editor/probes/{probe.pk}/", probe_form(probe, regions=[999_999]))

    assert response.status_code == 200
    assert "Select a valid choice" in text(response.content)
    assert snapshot() == before
