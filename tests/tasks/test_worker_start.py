"""What a worker does once when it starts, so no notification pays for it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_starting_worker_loads_the_url_configuration_before_any_task():
    code = (
        "import sys, django; django.setup();"
        "from statuspage.celery import app;"
        "from celery.signals import worker_init;"
        "assert 'incidents.views.public_urls' not in sys.modules;"
        "worker_init.send(sender=None);"
        "print('incidents.views.public_urls' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().endswith("True"), done.stderr
