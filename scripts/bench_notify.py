"""`make bench-notify`: one update to 20,000 confirmed subscribers through the real pipeline.

Starts a local SMTP sink (aiosmtpd, scripts/smtp_sink.py), a local HTTP receiver for webhooks
and Slack messages (scripts/http_sink.py, which refuses invalid Block Kit as Slack does) and a
Celery worker on the `notify` queue; creates the subscribers across the four languages, split
evenly across email, webhook and Slack; posts one update (the outbox rows are written in its
transaction, the worker is kicked after commit) and waits until every mail, webhook and Slack
message has arrived. The SMTP sink's ceiling is a plain smtplib loop sending as many
pre-rendered messages as there are email subscribers over one connection, measured right before
the run and after it; the ratio is against the mean of both, because the load of a shared
machine moves the raw figure as much as the pipeline's. Uses DATABASE_URL and REDIS_URL as
configured (PostgreSQL and Redis give the meaningful figure). The last line is:

subscribers=<n> email=<e> webhook=<w> slack=<s> delivered=<d> duplicates=<u> missing=<m>
emails_per_s=<r> raw_smtp_per_s=<s> ratio=<r/s>  (one line; emails_per_s counts the email share
from publication to its last mail)

Environment: BENCH_SUBSCRIBERS (20000), BENCH_WORKER_CONCURRENCY (1; also the number of dispatch
messages per kick), BENCH_WORKER_POOL (prefork), BENCH_TIMEOUT (900 s),
BENCH_SMTP_PORT (first free port from 8610), BENCH_HTTP_PORT (first free port from 8710).
"""

import email.policy
import os
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
SUBSCRIBERS = int(os.environ.get("BENCH_SUBSCRIBERS", "20000"))
CONCURRENCY = os.environ.get("BENCH_WORKER_CONCURRENCY", "1")
POOL = os.environ.get("BENCH_WORKER_POOL", "prefork")
TIMEOUT = float(os.environ.get("BENCH_TIMEOUT", "900"))
LANGUAGES = ["en", "ru", "es", "nb"]
DOMAIN = "bench.invalid"


def free_port(start: int) -> int:
    for port in range(start, start + 90):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit("no free port for the SMTP sink")


SMTP_PORT = int(os.environ.get("BENCH_SMTP_PORT") or free_port(8610))
HTTP_PORT = int(os.environ.get("BENCH_HTTP_PORT") or free_port(8710))
CHANNELS = ["email", "webhook", "slack"]
# The worker inherits these: mail goes to the sink over SMTP.
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "statuspage.settings",
        "EMAIL_BACKEND": "smtp",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(SMTP_PORT),
        "EMAIL_USE_TLS": "0",
        # Webhooks and Slack messages go to the local receiver on loopback.
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        # One dispatch message per worker slot, so every slot sends.
        "NOTIFY_DISPATCH_PARALLEL": os.environ.get("BENCH_WORKER_CONCURRENCY", "1"),
    }
)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from incidents.channels.email import personalise  # noqa: E402
from incidents.channels.emails import message_domain  # noqa: E402
from incidents.lifecycle.commands import DeclareIncident, PostUpdate  # noqa: E402
from incidents.lifecycle.opening import declare_incident  # noqa: E402
from incidents.lifecycle.updates import post_update  # noqa: E402
from incidents.models import Component, Delivery, DeliveryState, Incident, Subscriber  # noqa: E402
from incidents.services.notifications import watch_notifications  # noqa: E402
from statuspage.celery import app as celery_app  # noqa: E402


def say(text: str) -> None:
    print(f"bench-notify: {text}", flush=True)


def start(command: list[str], ready_word: str, name: str, timeout: float = 60) -> subprocess.Popen:
    """Starts a process and waits until a line of its output contains `ready_word`."""
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    ready = threading.Event()

    def follow():
        for line in process.stdout:
            if ready_word in line:
                ready.set()
            if "Error" in line or "Traceback" in line:
                sys.stderr.write(f"[{name}] {line}")

    threading.Thread(target=follow, daemon=True).start()
    if not ready.wait(timeout):
        process.kill()
        raise SystemExit(f"{name} did not start")
    return process


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def reset_data() -> Component:
    bench_subscribers = Subscriber.objects.filter(email__endswith=f"@{DOMAIN}")
    Delivery.objects.filter(subscriber__in=bench_subscribers)._raw_delete(connection.alias)
    Subscriber.components.through.objects.filter(subscriber__in=bench_subscribers)._raw_delete(
        connection.alias
    )
    bench_subscribers._raw_delete(connection.alias)
    Incident.objects.filter(slug__contains="bench-notify").delete()
    component, _ = Component.objects.get_or_create(
        slug="bench-notify", defaults={"name": {"en": "Bench API"}}
    )
    return component


def new_subscriber(i: int, now) -> Subscriber:
    """Every third subscriber is a webhook, every third a Slack channel, the rest email."""
    channel = CHANNELS[i % 3]
    subscriber = Subscriber(
        channel=channel,
        email=f"s{i:06}@{DOMAIN}",
        language=LANGUAGES[i % 4],
        confirmed_at=now,
        created_at=now,
    )
    if channel == "webhook":
        subscriber.endpoint_url = f"http://127.0.0.1:{HTTP_PORT}/hooks/{i}"
    elif channel == "slack":
        subscriber.target = f"http://127.0.0.1:{HTTP_PORT}/slack/T0BENCH/B0BENCH/{i:06}"
    return subscriber


def create_subscribers(count: int) -> None:
    now = timezone.now()
    Subscriber.objects.bulk_create((new_subscriber(i, now) for i in range(count)), batch_size=2000)


def received_ids(path: Path) -> list[str]:
    return path.read_text().split()


def purge_notify_queue() -> None:
    try:
        with celery_app.connection_for_write() as conn:
            conn.default_channel.queue_purge("notify")
    except Exception as error:  # an empty or missing queue is fine
        say(f"could not purge the notify queue ({error})")


def warm_up_sample(incident) -> bytes:
    """A notification mail like the run's, of the incident's first update (which notified nobody)."""
    subscriber = Subscriber.objects.filter(email__endswith=f"@{DOMAIN}", channel="email").first()
    update = incident.updates.order_by("created_at").first()
    mail = personalise(Delivery(update=update, subscriber=subscriber, idempotency_key="raw-sample"))
    return mail.message(policy=email.policy.SMTP).as_bytes()


def raw_ceiling(sample: bytes, count: int, sink_file: Path) -> float:
    """A plain smtplib loop over one connection, messages rendered before the clock starts."""
    key = sample.split(b"Message-ID: <", 1)[1].split(b">", 1)[0]
    messages = [sample.replace(key, f"raw-{i}".encode()) for i in range(count)]
    before = len(received_ids(sink_file))
    started = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", SMTP_PORT) as smtp:
        for i, message in enumerate(messages):
            smtp.sendmail(f"status@{DOMAIN}", [f"raw{i}@{DOMAIN}"], message)
    elapsed = time.perf_counter() - started
    arrived = len(received_ids(sink_file)) - before
    if arrived != count:
        say(f"raw loop: {arrived} of {count} arrived")
    return count / elapsed


class Arrivals:
    """What has arrived at a sink's file, read incrementally; `finished` when all expected are in."""

    def __init__(self, path: Path, expected: set[str]):
        self.file = open(path)
        self.expected = expected
        self.arrived: set[str] = set()
        self.pending = ""
        self.finished: float | None = None

    def look(self) -> None:
        self.pending += self.file.read()
        *lines, self.pending = self.pending.split("\n")
        self.arrived.update(line for line in lines if line in self.expected)
        if self.finished is None and len(self.arrived) >= len(self.expected):
            self.finished = time.perf_counter()


def count(lines: list[str], expected: set[str]) -> tuple[int, int, int]:
    """(delivered, duplicates, missing) of `expected` in what a sink wrote."""
    ids = [line for line in lines if line in expected]
    delivered = len(set(ids))
    return delivered, len(ids) - delivered, len(expected - set(ids))


def main() -> int:
    say(
        f"database {connection.vendor}, broker {celery_app.conf.broker_url.split('://')[0]}, "
        f"SMTP sink port {SMTP_PORT}, HTTP receiver port {HTTP_PORT}"
    )
    call_command("migrate", verbosity=0)
    component = reset_data()
    incident = declare_incident(
        DeclareIncident(
            title="Bench: delayed deliveries (bench-notify)",
            language="en",
            body="Bench incident opened before anyone subscribed.",
            component_statuses={component: "degraded_performance"},
        ),
        actor=None,
    )
    incident.slug = f"{incident.slug}-bench-notify"
    incident.save(update_fields=["slug"])
    started = time.perf_counter()
    create_subscribers(SUBSCRIBERS)
    say(f"{SUBSCRIBERS} confirmed subscribers created in {time.perf_counter() - started:.1f} s")

    folder = Path(tempfile.mkdtemp(prefix="bench-notify-"))
    sink_file, http_file = folder / "received.txt", folder / "received-http.txt"
    sink_file.touch()
    http_file.touch()
    sink = start(
        [PYTHON, "scripts/smtp_sink.py", "--port", str(SMTP_PORT), "--out", str(sink_file)], "ready", "sink"
    )
    receiver = start(
        [PYTHON, "scripts/http_sink.py", "--port", str(HTTP_PORT), "--out", str(http_file)],
        "ready",
        "receiver",
    )
    # The machine's load moves the raw figure as much as the pipeline's: measure it right before
    # the run too, with a mail of the same kind, and compare with the mean of both.
    email_share = Subscriber.objects.filter(email__endswith=f"@{DOMAIN}", channel="email").count()
    raw_before = raw_ceiling(warm_up_sample(incident), email_share, sink_file)
    say(f"raw smtplib before the run: {raw_before:.0f}/s")
    purge_notify_queue()
    worker = start(
        [PYTHON, "-m", "celery", "-A", "statuspage", "worker", "-Q", "notify", "-c", CONCURRENCY, "-P", POOL,
         "-n", f"bench-notify-{os.getpid()}@%h", "-l", "info", "--without-gossip", "--without-mingle"],
        "ready",
        "worker",
    )  # fmt: skip
    try:
        published = time.perf_counter()
        with watch_notifications() as kicks:
            update = post_update(
                incident,
                PostUpdate(
                    status="identified",
                    language="en",
                    body={
                        "en": "A queue consumer is **lagging**; p95 delivery delay is 6 min. Fix rolling out.",
                        "ru": "Потребитель очереди **отстаёт**; p95 задержки доставки 6 мин. Исправление выкатывается.",
                        "es": "Un consumidor de la cola va **retrasado**; el p95 de entrega es de 6 min.",
                        "nb": "En kø-konsument **henger etter**; p95 leveringsforsinkelse er 6 min.",
                    },
                ),
                actor=None,
            )
        enqueued = time.perf_counter() - published
        say(f"update posted with its outbox rows in {enqueued:.2f} s; kick: {', '.join(kicks.outcomes)}")
        keys = dict(Delivery.objects.filter(update=update).values_list("idempotency_key", "channel"))
        expected = {
            "email": {f"<{k}@{message_domain()}>" for k, channel in keys.items() if channel == "email"},
            "webhook": {f"hooks {k}" for k, channel in keys.items() if channel == "webhook"},
            "slack": {f"slack {k}" for k, channel in keys.items() if channel == "slack"},
        }
        arrivals = {
            "email": Arrivals(sink_file, expected["email"]),
            "webhook": Arrivals(http_file, expected["webhook"]),
            "slack": Arrivals(http_file, expected["slack"]),
        }
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and any(a.finished is None for a in arrivals.values()):
            for arrival in arrivals.values():
                arrival.look()
            time.sleep(0.2)
        now = time.perf_counter()
        elapsed = {name: (a.finished or now) - published for name, a in arrivals.items()}
        time.sleep(1.0)  # anything arriving late counts as a duplicate
        states = dict(
            Delivery.objects.filter(update=update)
            .values_list("state")
            .annotate(n=django.db.models.Count("id"))
            .order_by()
        )
        say(
            f"delivery states: {states}; from publication to the last message: "
            + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in elapsed.items())
        )
    finally:
        stop(worker)
        stop(receiver)

    http_lines = http_file.read_text().splitlines()
    counted = {
        "email": count(received_ids(sink_file), expected["email"]),
        "webhook": count(http_lines, expected["webhook"]),
        "slack": count(http_lines, expected["slack"]),
    }
    refused = sum(1 for line in http_lines if line.endswith(" invalid"))
    if refused:
        say(f"{refused} Slack messages were refused as invalid Block Kit")
    delivered, duplicates, missing = (sum(c[i] for c in counted.values()) for i in range(3))
    emails = counted["email"][0]
    emails_per_s = emails / elapsed["email"]

    sample_delivery = Delivery.objects.filter(
        update=update, channel="email", state=DeliveryState.SENT
    ).select_related("update__incident", "subscriber")[0]
    sample = personalise(sample_delivery).message(policy=email.policy.SMTP).as_bytes()
    say(f"measuring the raw smtplib ceiling ({len(sample)} byte messages)")
    raw_after = raw_ceiling(sample, len(expected["email"]), sink_file)
    say(f"raw smtplib after the run: {raw_after:.0f}/s")
    raw_per_s = (raw_before + raw_after) / 2
    stop(sink)
    print(
        f"subscribers={SUBSCRIBERS} email={len(expected['email'])} webhook={len(expected['webhook'])} "
        f"slack={len(expected['slack'])} delivered={delivered} duplicates={duplicates} missing={missing} "
        f"emails_per_s={emails_per_s:.0f} raw_smtp_per_s={raw_per_s:.0f} ratio={emails_per_s / raw_per_s:.2f}"
    )
    return 0 if missing == 0 and duplicates == 0 and not refused else 1


if __name__ == "__main__":
    sys.exit(main())
