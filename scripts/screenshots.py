"""Full-page screenshots of the public site and the editor, for looking at by eye.

A fresh database in a temporary STATUSPAGE_VAR_DIR (migrate, load_demo, an admin account), then
`manage.py runserver` with DEBUG=1 and headless Chromium at 1280 and 390 px wide, light and dark
(prefers-color-scheme through the DevTools protocol). Files go to var/screenshots/
<name>-<width>-<scheme>.png; each path is printed.
"""

import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By

BASE = Path(__file__).resolve().parent.parent
OUT = BASE / "var" / "screenshots"
USER, PASSWORD = "shots", "shots-password-1"
WIDTHS = (1280, 390)
SCHEMES = ("light", "dark")

SETUP = f"""
import datetime as dt
import json
from django.contrib.auth import get_user_model
from django.db.models import Count
from django.utils import timezone
from incidents.models import Channel, Component, Incident, IntakeAlert, Probe, Subscriber
from incidents.roles import Role, assign_role
from incidents.channels.links import manage_token
user = get_user_model().objects.create_user({USER!r}, password={PASSWORD!r})
assign_role(user, Role.ADMIN)
with_pm = Incident.objects.filter(published_at__isnull=False, postmortem__state="published")
incident = with_pm.annotate(n=Count("postmortem__key_figures")).order_by("-n", "-pk").first()
incident = incident or Incident.objects.filter(published_at__isnull=False).first()
first_component = Component.objects.order_by("pk").first()
open_incident = Incident.objects.incidents().published().open().order_by("-started_at").first()
probe = Probe.objects.order_by("pk").first()
# A Slack subscriber, for the pages its own links lead to (manage, unsubscribe).
chat = Subscriber.objects.create(
    channel=Channel.SLACK, email="lead@example.com", confirmed_at=timezone.now(),
    target="https://hooks.slack.com/services/T0SHOTS/B0SHOTS/abcdefghijklmnopqrstuvwx",
)
# Two alerts on the intake screen: one no rule takes, and one its source stopped sending.
for fingerprint, name, hours in (("shots0unknown", "InvoiceQueueStuck", 0), ("shots0silent", "DiskFull", 9)):
    received = timezone.now() - dt.timedelta(hours=hours)
    IntakeAlert.objects.create(
        source="alertmanager", fingerprint=fingerprint, name=name, state="firing",
        labels={{"alertname": name, "severity": "page"}}, starts_at=received,
        first_received_at=received, last_received_at=received,
    )
# A configuration applied from a file, for the audit trail's wording of one.
from incidents.configuration.applying import apply_configuration
from incidents.configuration.export import export_document
document = export_document()
del document["probes"]  # a section left out is left alone (the demo's probes name credentials)
document["metrics"][0]["thresholds"]["degraded_performance"] = 500.0
document["components"][0]["name"]["en"] += " service"
apply_configuration(document, actor=user, environ={{}})
print(json.dumps({{"slug": incident.slug, "pk": incident.pk, "chat_token": manage_token(chat),
                  "component": first_component.slug, "component_pk": first_component.pk,
                  "probe_pk": probe.pk if probe else None,
                  "open_pk": open_incident.pk if open_incident else None}}))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env, *args, capture=False):
    cmd = [sys.executable, "manage.py", *args]
    return subprocess.run(cmd, cwd=BASE, env=env, check=True, text=True, capture_output=capture).stdout


def prepare_database(env):
    manage(env, "migrate", "--noinput", capture=True)
    manage(env, "load_demo", capture=True)
    out = manage(env, "shell", "-c", SETUP, capture=True)
    return json.loads(out.strip().splitlines()[-1])


def start_server(env, port):
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=BASE,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):  # a busy machine takes its time over the system checks
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("runserver did not answer")


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in (
        "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run "
        "--disable-background-networking --disable-component-update --disable-sync"
    ).split():
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--hide-scrollbars")
    service = webdriver.ChromeService(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def log_in(driver, root):
    driver.get(f"{root}/editor/login/")
    driver.find_element(By.NAME, "username").send_keys(USER)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, 'form[action$="/login/"] button[type=submit]').click()
    for _ in range(50):
        if "/login/" not in driver.current_url:
            return
        time.sleep(0.1)
    raise SystemExit("could not log in to the editor: " + driver.find_element(By.TAG_NAME, "main").text[:300])


def shoot(driver, url, path, width, scheme):
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    driver.set_window_size(width, 900)
    driver.get(url)
    time.sleep(0.3)
    height = driver.execute_script(
        "return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)"
    )
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    time.sleep(0.2)
    data = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    path.write_bytes(base64.b64decode(data["data"]))
    print(path.relative_to(BASE))


def pages(ids):
    inc, comp = ids["slug"], ids["component"]
    return [
        ("overview", "/"),
        ("overview-ru", "/ru/"),
        ("incident", f"/incidents/{inc}/"),
        ("component", f"/components/{comp}/"),
        # The demo's metric measured from three regions (incidents.demo.regions).
        ("component-regions", "/components/public-api/"),
        ("history", "/history/"),
        ("uptime", "/uptime/"),
        ("maintenance", "/maintenance/"),
        ("subscribe", "/subscribe/"),
        ("subscription-manage", f"/subscribe/manage/{ids['chat_token']}/"),
        ("subscription-unsubscribe", f"/subscribe/unsubscribe/{ids['chat_token']}/"),
    ]


# Shot from a server with DEBUG off, as visitors see them (with DEBUG on Django shows its own).
ERROR_PAGES = [("not-found", "/no-such-page/"), ("not-found-ru", "/ru/no-such-page/")]


def editor_pages(ids):
    pk = ids["pk"]
    shots = [
        ("editor", "/editor/"),
        ("editor-declare", "/editor/incidents/new/"),
        ("editor-incident", f"/editor/incidents/{pk}/"),
        ("editor-postmortem", f"/editor/incidents/{pk}/postmortem/"),
        ("editor-components", "/editor/components/"),
        ("editor-component", f"/editor/components/{ids['component_pk']}/"),
        ("editor-probes", "/editor/probes/"),
        ("editor-regions", "/editor/regions/"),
        ("editor-action-items", "/editor/action-items/"),
        ("editor-audit", "/editor/audit/"),
        ("editor-users", "/editor/users/"),
        ("editor-tokens", "/editor/tokens/"),
        ("editor-templates", "/editor/templates/"),
        ("editor-import-statuspage", "/editor/import/statuspage/"),
        ("editor-intake", "/editor/intake/"),
        ("editor-deliveries", "/editor/deliveries/"),
    ]
    if ids.get("probe_pk"):
        shots.insert(7, ("editor-probe", f"/editor/probes/{ids['probe_pk']}/"))
    if ids.get("open_pk"):  # an open incident: the update and resolve forms with their plan
        shots.insert(3, ("editor-incident-open", f"/editor/incidents/{ids['open_pk']}/"))
    return shots


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp:
        env = {**os.environ, "STATUSPAGE_VAR_DIR": tmp, "DEBUG": "1"}
        env.pop("DATABASE_URL", None)
        ids = prepare_database(env)
        port = free_port()
        server = start_server(env, port)
        driver = start_browser(Path(tmp) / "chromium-profile")
        try:
            root = f"http://127.0.0.1:{port}"
            log_in(driver, root)
            # `screenshots.py editor` shoots only the pages whose names start with "editor".
            prefix = sys.argv[1] if len(sys.argv) > 1 else ""
            for name, url in [*pages(ids), *editor_pages(ids)]:
                if not name.startswith(prefix):
                    continue
                for width in WIDTHS:
                    for scheme in SCHEMES:
                        shoot(driver, root + url, OUT / f"{name}-{width}-{scheme}.png", width, scheme)
            if "not-found".startswith(prefix) or prefix.startswith("not-found"):
                shoot_error_pages(driver, env, prefix)
        finally:
            driver.quit()
            server.terminate()
            server.wait(timeout=10)


def shoot_error_pages(driver, env, prefix):
    """The 404 page from a second server run as in production (DEBUG off, collected static)."""
    visitor_env = {
        **env,
        "DEBUG": "0",
        "SECRET_KEY": "screenshots-only-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "0",
    }
    manage(visitor_env, "collectstatic", "--noinput", capture=True)
    port = free_port()
    server = start_server(visitor_env, port)
    try:
        for name, url in ERROR_PAGES:
            if not name.startswith(prefix):
                continue
            for width in WIDTHS:
                for scheme in SCHEMES:
                    shoot(
                        driver,
                        f"http://127.0.0.1:{port}{url}",
                        OUT / f"{name}-{width}-{scheme}.png",
                        width,
                        scheme,
                    )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
