"""`make bench-notify`: one update to 20,000 confirmed subscribers through the real pipeline.

Starts a local SMTP sink (aiosmtpd, scripts/smtp_sink.py) and a Celery worker on the `notify`
queue, creates the subscribers across the four languages, posts one update (the outbox rows
are written in its transaction, the worker is kicked after commit) and waits until every mail
has arrived. Then measures the sink's ceiling: a plain smtplib loop sending the same number of
pre-rendered messages over one connection. Uses DATABASE_URL and REDIS_URL as configured
(PostgreSQL and Redis give the meaningful figure). The last line is:

subscribers=<n> delivered=<d> duplicates=<u> missing=<m> emails_per_s=<r> raw_smtp_per_s=<s> ratio=<r/s>

Environment: BENCH_SUBSCRIBERS (20000), BENCH_WORKER_CONCURRENCY (1; also the number of dispatch
messages per kick), BENCH_WORKER_POOL (prefork), BENCH_TIMEOUT (900 s),
BENCH_SMTP_PORT (first free port from 8610).
"""

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
# The worker inherits these: mail goes to the sink over SMTP.
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "statuspage.settings",
        "EMAIL_BACKEND": "smtp",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(SMTP_PORT),
        "EMAIL_USE_TLS": "0",
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
from incidents.channels.emails import message_domain, mime_bytes  # noqa: E402
from incidents.models import Component, Delivery, DeliveryState, Incident, Subscriber  # noqa: E402
from incidents.services.incidents import declare_incident, post_update  # noqa: E402
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


def create_subscribers(count: int) -> None:
    now = timezone.now()
    Subscriber.objects.bulk_create(
        (
            Subscriber(email=f"s{i:06}@{DOMAIN}", language=LANGUAGES[i % 4], confirmed_at=now, created_at=now)
            for i in range(count)
        ),
        batch_size=2000,
    )


def received_ids(path: Path) -> list[str]:
    return path.read_text().split()


def purge_notify_queue() -> None:
    try:
        with celery_app.connection_for_write() as conn:
            conn.default_channel.queue_purge("notify")
    except Exception as error:  # an empty or missing queue is fine
        say(f"could not purge the notify queue ({error})")


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


def main() -> int:
    say(
        f"database {connection.vendor}, broker {celery_app.conf.broker_url.split('://')[0]}, sink port {SMTP_PORT}"
    )
    call_command("migrate", verbosity=0)
    component = reset_data()
    incident = declare_incident(
        title="Bench: delayed deliveries (bench-notify)",
        language="en",
        body="Bench incident opened before anyone subscribed.",
        component_statuses={component: "degraded_performance"},
        actor=None,
    )
    incident.slug = f"{incident.slug}-bench-notify"
    incident.save(update_fields=["slug"])
    started = time.perf_counter()
    create_subscribers(SUBSCRIBERS)
    say(f"{SUBSCRIBERS} confirmed subscribers created in {time.perf_counter() - started:.1f} s")

    sink_file = Path(tempfile.mkdtemp(prefix="bench-notify-")) / "received.txt"
    sink_file.touch()
    sink = start(
        [PYTHON, "scripts/smtp_sink.py", "--port", str(SMTP_PORT), "--out", str(sink_file)], "ready", "sink"
    )
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
                status="identified",
                language="en",
                actor=None,
                body={
                    "en": "A queue consumer is **lagging**; p95 delivery delay is 6 min. Fix rolling out.",
                    "ru": "Потребитель очереди **отстаёт**; p95 задержки доставки 6 мин. Исправление выкатывается.",
                    "es": "Un consumidor de la cola va **retrasado**; el p95 de entrega es de 6 min.",
                    "nb": "En kø-konsument **henger etter**; p95 leveringsforsinkelse er 6 min.",
                },
            )
        enqueued = time.perf_counter() - published
        say(f"update posted with its outbox rows in {enqueued:.2f} s; kick: {', '.join(kicks.outcomes)}")
        expected = {
            f"<{key}@{message_domain()}>"
            for key in Delivery.objects.filter(update=update).values_list("idempotency_key", flat=True)
        }
        finished = None
        deadline = time.monotonic() + TIMEOUT
        arrived: set[str] = set()
        with open(sink_file) as follow:
            # Reads only what the sink appended since the last look, so waiting costs little CPU.
            pending = ""
            while time.monotonic() < deadline:
                pending += follow.read()
                *lines, pending = pending.split("\n")
                arrived.update(line for line in lines if line in expected)
                if len(arrived) >= len(expected):
                    finished = time.perf_counter()
                    break
                time.sleep(0.2)
        elapsed = (finished or time.perf_counter()) - published
        time.sleep(1.0)  # anything arriving late counts as a duplicate
        states = dict(
            Delivery.objects.filter(update=update)
            .values_list("state")
            .annotate(n=django.db.models.Count("id"))
            .order_by()
        )
        say(f"delivery states: {states}; {elapsed:.1f} s from publication to the last mail")
    finally:
        stop(worker)

    ids = [i for i in received_ids(sink_file) if i in expected]
    delivered = len(set(ids))
    duplicates = len(ids) - delivered
    missing = len(expected - set(ids))
    emails_per_s = delivered / elapsed

    sample_delivery = Delivery.objects.filter(update=update, state=DeliveryState.SENT).select_related(
        "update__incident", "subscriber"
    )[0]
    sample = mime_bytes(personalise(sample_delivery))
    say(f"measuring the raw smtplib ceiling ({len(sample)} byte messages)")
    raw_per_s = raw_ceiling(sample, len(expected), sink_file)
    stop(sink)
    print(
        f"subscribers={SUBSCRIBERS} delivered={delivered} duplicates={duplicates} missing={missing} "
        f"emails_per_s={emails_per_s:.0f} raw_smtp_per_s={raw_per_s:.0f} ratio={emails_per_s / raw_per_s:.2f}"
    )
    return 0 if missing == 0 and duplicates == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
