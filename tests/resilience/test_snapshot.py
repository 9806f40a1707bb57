"""The static snapshot: every public page in every language, feeds, JSON, assets, a manifest."""

import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.public import snapshot
from incidents.tasks.snapshot import export_snapshot, follow_site

pytestmark = pytest.mark.django_db


def test_export_writes_the_whole_public_site_in_every_language(site, snapshot_dir):
    made = snapshot.export()
    folder = snapshot_dir / "current"
    slug = site["current"].slug
    for language in ("", "ru/", "es/", "nb/"):
        for page in ("index.html", "history/index.html", "uptime/index.html", "maintenance/index.html"):
            assert (folder / language / page).is_file(), language + page
        assert (folder / language / f"incidents/{slug}/index.html").is_file()
        assert (folder / language / "components/public-api/index.html").is_file()
        assert (folder / language / "components/public-api/history.atom").read_bytes().startswith(b"<?xml")
        assert b"<rss" in (folder / language / "history.rss").read_bytes()
        assert (folder / language / "404.html").is_file()
    assert '<html lang="ru">' in (folder / "ru/index.html").read_text()
    summary = json.loads((folder / "api/v2/summary.json").read_text())
    assert summary["components"]
    assert json.loads((folder / "ru/api/v2/summary.json").read_text())["status"]["description"]
    assert (folder / "static/css/site.css").is_file()
    assert (folder / "favicon.svg").read_text().startswith("<svg")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["generated_at"] == made.generated_at.isoformat()
    assert manifest["files"]["history.atom"]["content_type"].startswith("application/atom+xml")
    assert len(manifest["files"]["index.html"]["sha256"]) == 64


def test_each_page_says_when_the_snapshot_was_made(site, snapshot_dir):
    made = snapshot.export()
    page = (snapshot_dir / "current" / "index.html").read_text()
    assert "Last updated" in page
    assert f'<time datetime="{made.generated_at.isoformat()}"' in page
    assert 'class="snapshot-note"' in (snapshot_dir / "current/ru/history/index.html").read_text()


def test_a_new_snapshot_replaces_the_current_one_by_swapping_the_link(site, snapshot_dir, settings):
    settings.STATUS_SNAPSHOT_KEEP = 1
    first = snapshot.export()
    second = snapshot.export()
    third = snapshot.export()
    current = snapshot_dir / "current"
    assert current.is_symlink()
    assert current.resolve() == third.folder.resolve()
    assert not first.folder.exists()  # pruned: one older build kept besides the current one
    assert second.folder.exists()


def test_a_posted_update_reaches_the_next_snapshot(site, snapshot_dir, admin):
    snapshot.export()
    post_update(
        site["current"],
        PostUpdate(status="monitoring", body={"en": "A fix is rolling out everywhere."}, language="en"),
        actor=admin,
    )
    snapshot.export()
    page = (snapshot_dir / f"current/incidents/{site['current'].slug}/index.html").read_text()
    assert "A fix is rolling out everywhere." in page


def builds(snapshot_dir) -> int:
    return len(list((snapshot_dir / "builds").iterdir()))


def post(site, admin, text: str, status: str = "identified") -> None:
    post_update(site["current"], PostUpdate(status=status, body={"en": text}, language="en"), actor=admin)


def test_a_burst_of_ten_updates_is_rendered_once_at_the_nodes_next_look(
    site, admin, snapshot_dir, settings, django_capture_on_commit_callbacks
):
    settings.STATUS_SNAPSHOT_KEEP = 5
    export_snapshot()
    for number in range(10):
        with django_capture_on_commit_callbacks(execute=True):
            post(site, admin, f"Update {number} at {timezone.now():%H:%M:%S}")
    follow_site()
    follow_site()
    assert builds(snapshot_dir) == 2
    page = (snapshot_dir / f"current/incidents/{site['current'].slug}/index.html").read_text()
    assert "Update 9 at" in page


def test_a_node_whose_snapshot_is_current_renders_nothing(site, snapshot_dir):
    export_snapshot()
    follow_site()
    assert builds(snapshot_dir) == 1


def test_an_update_made_on_another_node_leaves_this_nodes_snapshot_behind_until_its_next_look(
    site, admin, snapshot_dir, django_capture_on_commit_callbacks
):
    export_snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        post(site, admin, "Second.", status="monitoring")
    assert snapshot.is_behind()
    follow_site()
    assert not snapshot.is_behind()
    assert "Second." in (snapshot_dir / f"current/incidents/{site['current'].slug}/index.html").read_text()


def test_export_site_command_writes_into_the_given_folder(site, tmp_path):
    call_command("export_site", str(tmp_path / "out"))
    assert (tmp_path / "out/current/index.html").is_file()
