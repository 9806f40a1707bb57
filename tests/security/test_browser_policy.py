"""Every page carries a strict Content-Security-Policy and refuses to be framed; public pages
run no inline script but the theme snippet the policy allows by its hash, so the policy breaks
nothing on them."""

import base64
import hashlib
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from incidents.security.inline_scripts import THEME_BOOT, THEME_BOOT_HASH
from tests.public.conftest import _site_rows, site  # noqa: F401

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": "'self'",
    "script-src": f"'self' {THEME_BOOT_HASH}",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
LANGUAGE_PREFIXES = ("", "/ru", "/es", "/nb")


def policy_of(response) -> dict[str, str]:
    header = response.get("Content-Security-Policy", "")
    assert header, "no Content-Security-Policy"
    directives = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {name: value for name, value in directives}


class InlineCode(HTMLParser):
    """Collects what a strict policy would block: inline scripts without a nonce whose text's
    hash the policy's `script_src` does not list, event handler attributes, style attributes and
    <style> blocks, javascript: links."""

    def __init__(self, script_src: str = ""):
        super().__init__()
        self.found: list[str] = []
        self.allowed = set(script_src.split())
        self.script: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        data_block = names.get("type", "").lower() == "application/json"  # never run (json_script)
        if tag == "script" and "src" not in names and "nonce" not in names and not data_block:
            self.script = []
        if tag == "style":
            self.found.append("<style> block")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{name}= on <{tag}>")
            if name == "style":
                self.found.append(f"style= on <{tag}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: in {name}")

    def handle_data(self, data):
        if self.script is not None:
            self.script.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self.script is not None:
            digest = hashlib.sha256("".join(self.script).encode()).digest()
            if f"'sha256-{base64.b64encode(digest).decode()}'" not in self.allowed:
                self.found.append("inline <script>")
            self.script = None


def inline_code_in(html: str, script_src: str = "") -> list[str]:
    parser = InlineCode(script_src)
    parser.feed(html)
    return parser.found


def public_paths(site) -> list[str]:  # noqa: F811
    slugs = [site["current"].slug, site["past"].slug]
    paths = ["/", "/history/", "/history/?page=2", "/uptime/", "/maintenance/"]
    paths += [f"/incidents/{slug}/" for slug in slugs]
    paths += ["/components/public-api/", "/components/webhook-delivery/"]
    return [prefix + path for prefix in LANGUAGE_PREFIXES for path in paths]


def test_every_public_page_carries_the_strict_policy_and_refuses_framing(client, site, settings):  # noqa: F811
    settings.PUBLIC_HISTORY_PAGE_SIZE = 2
    for path in public_paths(site):
        response = client.get(path)
        assert response.status_code == 200, path
        assert policy_of(response) == STRICT, path
        assert response["X-Frame-Options"] == "DENY", path


def test_public_pages_run_no_inline_code(client, site, settings):  # noqa: F811
    settings.PUBLIC_HISTORY_PAGE_SIZE = 2
    for path in public_paths(site) + ["/subscribe/", "/does-not-exist/"]:
        response = client.get(path)
        assert inline_code_in(response.content.decode(), policy_of(response)["script-src"]) == [], path


def test_the_checker_finds_inline_code():
    # Without this, a checker that finds nothing would pass the test above on any page.
    page = '<script>x()</script><p onclick="x()" style="color:red"><a href="javascript:x()">a</a><style>p{}</style>'
    assert len(inline_code_in(page, STRICT["script-src"])) == 5
    assert inline_code_in('<script src="/static/x.js"></script><script nonce="abc">x()</script>') == []
    assert inline_code_in('<script id="aids" type="application/json">{"a": 1}</script>') == []


def test_only_the_exact_theme_snippet_passes_by_its_hash():
    assert inline_code_in(f"<script>{THEME_BOOT}</script>", STRICT["script-src"]) == []
    assert inline_code_in(f"<script>{THEME_BOOT} </script>", STRICT["script-src"]) == ["inline <script>"]
    assert inline_code_in(f"<script>{THEME_BOOT}</script>", "'self'") == ["inline <script>"]


def test_public_pages_apply_a_kept_theme_before_the_stylesheet(client, site):  # noqa: F811
    page = client.get("/").content.decode()
    assert page.index(f"<script>{THEME_BOOT}</script>") < page.index('rel="stylesheet"')


def test_a_cached_public_page_keeps_the_policy(client, site, settings):  # noqa: F811
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    client.get("/")
    assert policy_of(client.get("/")) == STRICT


def test_feeds_and_json_carry_the_policy_too(client, site):  # noqa: F811
    for path in ("/history.atom", "/history.rss", "/api/v2/summary.json"):
        assert policy_of(client.get(path))["frame-ancestors"] == "'none'", path


def test_editor_pages_carry_the_strict_policy(site, responder):  # noqa: F811
    client = Client()
    client.force_login(responder)
    for path in ("/editor/", f"/editor/incidents/{site['current'].pk}/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert policy_of(response) == STRICT, path
        assert response["X-Frame-Options"] == "DENY"
        assert inline_code_in(response.content.decode(), policy_of(response)["script-src"]) == [], path


def test_the_editor_login_and_the_admin_login_carry_the_strict_policy(client):
    for path in ("/editor/login/", "/admin/login/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert policy_of(response) == STRICT, path
        assert response["X-Frame-Options"] == "DENY"


def test_the_api_docs_run_only_scripts_served_by_the_site(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    policy = policy_of(response)
    assert policy["script-src"] == STRICT["script-src"]
    assert policy["frame-ancestors"] == "'none'"
    page = response.content.decode()
    assert [problem for problem in inline_code_in(page) if problem != "<style> block"] == []
    sources = re.findall(r'<script src="([^"]+)"', page)
    assert len(sources) == 3  # the Swagger UI bundle, its preset and the start-up script
    for source in sources:
        assert source.startswith("/"), source  # from this site, which 'self' allows
    startup = client.get(sources[-1].replace("&amp;", "&"))
    assert startup.status_code == 200
    assert startup["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in startup.content.decode()


@pytest.mark.urls("tests.security.embeddable_urls")
def test_a_view_marked_embeddable_may_be_framed_and_nothing_else_may(client, site):  # noqa: F811
    widget = client.get("/widget/")
    assert "X-Frame-Options" not in widget
    assert policy_of(widget)["frame-ancestors"] == "*"
    assert policy_of(widget)["script-src"] == STRICT["script-src"]  # only framing is relaxed
    page = client.get("/")
    assert page["X-Frame-Options"] == "DENY"
    assert policy_of(page)["frame-ancestors"] == "'none'"
