"""manage.py probe_region: regions set up from a script, with a key the centre accepts."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from incidents.models import AuditEvent, ProbeRegion
from incidents.probes.sealing import region_key, signed_body, verified_results

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("probe_region", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_adding_a_region_prints_a_key_its_signed_results_are_accepted_with():
    out, err = run("add", "eu-north", "--reference-url", "https://example.com/ping")

    key = out.strip()
    region = ProbeRegion.objects.get(name="eu-north")
    assert key == region_key("eu-north", region.key_generation)
    body, signature = signed_body("eu-north", [{"run_id": 1}], key=key)
    assert verified_results("eu-north", body, signature, key=key) == [{"run_id": 1}]
    assert region.reference_url == "https://example.com/ping" and region.active
    assert (
        f"PROBE_REGION=eu-north PROBE_REGION_KEY={key} celery -A statuspage worker -Q probes.eu-north" in err
    )
    assert AuditEvent.objects.filter(action="probe_region.created").count() == 1


def test_key_prints_the_current_key_and_rotate_a_new_one():
    first, _err = run("add", "us-east")
    again, _err = run("key", "us-east")
    rotated, _err = run("key", "us-east", "--rotate")

    assert again == first
    assert rotated.strip() == region_key("us-east", 2) != first.strip()


def test_list_names_every_region_with_its_queue():
    run("add", "ap-south", "--inactive")

    out, _err = run("list")

    assert "ap-south\tinactive\tqueue probes.ap-south" in out
    assert "local (home)\tactive\tqueue probes" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "EU North"), "Lower-case letters"),
        (("key", "nowhere"), "No region named 'nowhere'"),
        (("key", "local"), "home region"),
        (("add",), "needs a region name"),
    ],
)
def test_bad_requests_say_what_is_wrong_and_change_nothing(args, message):
    before = list(ProbeRegion.objects.values())

    with pytest.raises(CommandError, match=message):
        run(*args)

    assert list(ProbeRegion.objects.values()) == before
