def test_pages(client, site):
    for url in [
        "/",
        "/ru/",
        f"/incidents/{site['past'].slug}/",
        f"/ru/incidents/{site['current'].slug}/",
        "/components/webhook-delivery/",
        "/history/",
        "/uptime/",
        "/maintenance/",
        "/history.atom",
        "/history.rss",
        "/components/webhook-delivery/history.atom",
        "/nb/components/public-api/history.rss",
    ]:
        r = client.get(url)
        assert r.status_code == 200, (url, r.content[:3000])
    open("/tmp/wt3-overview.html", "wb").write(client.get("/").content)
    open("/tmp/wt3-incident.html", "wb").write(client.get(f"/incidents/{site['past'].slug}/").content)
    open("/tmp/wt3-component.html", "wb").write(client.get("/components/webhook-delivery/").content)
    open("/tmp/wt3-atom.xml", "wb").write(client.get("/history.atom").content)
