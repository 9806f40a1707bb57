"""A snapshot export never replaces a good build with one missing pages readers need."""

import pytest
from django.core.management import CommandError, call_command

from incidents import selectors
from incidents.models import Incident
from incidents.public import presentation, snapshot
from incidents.tasks.snapshot import export_snapshot

pytestmark = pytest.mark.django_db


def break_incident_page(monkeypatch, slug: str) -> None:
    original = selectors.public_incident

    def failing(requested: str):
        if requested == slug:
            raise RuntimeError("this incident's page cannot be drawn")
        return original(requested)

    monkeypatch.setattr(selectors, "public_incident", failing)


def test_an_incident_page_answering_500_keeps_the_previous_build_current(site, snapshot_dir, monkeypatch):
    previous = snapshot.export()
    break_incident_page(monkeypatch, site["current"].slug)
    with pytest.raises(snapshot.SnapshotFailed, match=site["current"].slug):
        snapshot.export()
    assert (snapshot_dir / "current").resolve() == previous.folder.resolve()
    assert (snapshot_dir / f"current/incidents/{site['current'].slug}/index.html").is_file()
    assert [p.name for p in (snapshot_dir / "builds").iterdir()] == [previous.folder.name]


def test_an_overview_answering_500_keeps_the_previous_build_current(site, snapshot_dir, monkeypatch):
    previous = snapshot.export()

    def failing(*args, **kwargs):
        raise RuntimeError("the overview cannot be drawn")

    monkeypatch.setattr(presentation, "overview_context", failing)
    with pytest.raises(snapshot.SnapshotFailed):
        snapshot.export()
    assert (snapshot_dir / "current").resolve() == previous.folder.resolve()
    assert "Last updated" in (snapshot_dir / "current/index.html").read_text()


def test_the_task_and_the_command_keep_the_previous_build_when_a_page_fails(
    site, snapshot_dir, monkeypatch, tmp_path
):
    previous = snapshot.export()
    break_incident_page(monkeypatch, site["current"].slug)
    export_snapshot()
    assert (snapshot_dir / "current").resolve() == previous.folder.resolve()
    with pytest.raises(CommandError, match="answered 500"):
        call_command("export_site", str(tmp_path / "out"))
    assert not (tmp_path / "out/current").exists()


def test_an_incident_deleted_during_the_export_drops_out_and_the_export_swaps(
    site, snapshot_dir, monkeypatch
):
    previous = snapshot.export()
    doomed = site["current"]
    listed = snapshot.public_urls

    def listed_then_deleted():
        urls = listed()
        Incident.objects.filter(pk=doomed.pk).delete()
        return urls

    monkeypatch.setattr(snapshot, "public_urls", listed_then_deleted)
    break_incident_page(monkeypatch, doomed.slug)  # drawing a vanished incident fails, too
    made = snapshot.export()
    assert (snapshot_dir / "current").resolve() == made.folder.resolve() != previous.folder.resolve()
    assert not (snapshot_dir / f"current/incidents/{doomed.slug}/index.html").exists()
    assert (snapshot_dir / "current/index.html").is_file()


def test_an_unpublished_incident_drops_out_and_the_export_swaps(site, snapshot_dir, monkeypatch):
    hidden = site["current"]
    listed = snapshot.public_urls

    def listed_then_unpublished():
        urls = listed()
        Incident.objects.filter(pk=hidden.pk).update(published_at=None)
        return urls

    monkeypatch.setattr(snapshot, "public_urls", listed_then_unpublished)
    made = snapshot.export()
    assert (snapshot_dir / "current").resolve() == made.folder.resolve()
    assert not (snapshot_dir / f"current/ru/incidents/{hidden.slug}/index.html").exists()
