"""/robots.txt: crawlers read the public pages, not the editor, the admin or our own API."""


def test_robots_txt_keeps_crawlers_on_the_public_pages(client):
    response = client.get("/robots.txt")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    rules = response.content.decode().splitlines()
    assert "User-agent: *" in rules
    assert {"Disallow: /editor/", "Disallow: /admin/", "Disallow: /api/v1/"} <= set(rules)
    assert "Disallow: /" not in rules
