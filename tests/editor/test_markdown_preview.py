"""The live Markdown preview: the public page's renderer, for responders only, behind CSRF."""

import pytest
from django.test import Client

from .conftest import logged_in

PREVIEW = "/editor/preview/"


@pytest.mark.django_db
def test_the_preview_renders_markdown_and_drops_scripts(responder):
    response = logged_in(responder).post(
        PREVIEW, {"text": "**Down** <script>alert(1)</script> [x](javascript:alert(2))"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>Down</strong>" in html
    assert "<script" not in html and "javascript:" not in html


@pytest.mark.django_db
def test_anonymous_visitors_and_viewers_get_no_preview(viewer):
    # Like every editor route, an anonymous visitor is sent to the login page.
    anonymous = Client().post(PREVIEW, {"text": "*hi*"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/editor/login/")
    assert logged_in(viewer).post(PREVIEW, {"text": "*hi*"}).status_code == 403


@pytest.mark.django_db
def test_the_preview_needs_the_csrf_token(responder):
    client = Client(enforce_csrf_checks=True)
    client.force_login(responder)
    assert client.post(PREVIEW, {"text": "*hi*"}).status_code == 403


@pytest.mark.django_db
def test_a_text_too_long_to_preview_is_refused_with_a_reason(responder):
    response = logged_in(responder).post(PREVIEW, {"text": "x" * 100_001})
    assert response.status_code == 413 and b"too long" in response.content
