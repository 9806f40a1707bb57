"""The editor offers the same light/dark/system toggle as the public site, set before first paint."""

import pytest

pytestmark = pytest.mark.django_db


def test_every_editor_screen_has_the_theme_toggle_and_the_boot_snippet(client, responder):
    client.force_login(responder)
    for path in ("/editor/", "/editor/declare/", "/editor/action-items/"):
        page = client.get(path).content.decode()
        assert "data-theme-toggle" in page, path
        assert "js/theme.js" in page and "localStorage" in page, path
