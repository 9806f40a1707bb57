"""The snapshot export asks for a missing page in every language to save the 404 page: that
request is no warning, while a reader's 404 still is."""

import logging

import pytest

from incidents.public import snapshot

pytestmark = pytest.mark.django_db


def test_export_logs_no_not_found_warning_for_its_own_404_page(site, snapshot_dir, caplog, client):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        snapshot.export()

    assert (snapshot_dir / "current" / "ru" / "404.html").is_file()
    assert not [r for r in caplog.records if "snapshot-page-not-found" in r.getMessage()]

    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get("/snapshot-page-not-found/")
        client.get("/no-such-page/")

    logged = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert logged == ["Not Found: /snapshot-page-not-found/", "Not Found: /no-such-page/"]
