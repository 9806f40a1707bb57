"""A web process does its one-off work (imports, URL tables, catalogs, locale data, templates)
before it takes a request, so no reader waits behind another reader's first request."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

READ_AFTER_LOADING = """
import json, sys
import statuspage.wsgi
import babel.localedata
from django.template import engines
from django.urls import get_resolver
from django.utils.translation import trans_real
loader = engines["django"].engine.template_loaders[0]
print(json.dumps({
    "modules": [m for m in ("icalendar", "incidents.views.public", "incidents.api.statuspage_views") if m in sys.modules],
    "url_tables": sorted(get_resolver()._reverse_dict),
    "catalogs": sorted(trans_real._translations),
    "locales": sorted(babel.localedata._cache),
    "templates": sorted(name for name in loader.get_template_cache if name.startswith("public/")),
}))
"""


def test_loading_the_web_application_prepares_every_page_in_every_language(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "statuspage.settings", "STATUSPAGE_VAR_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", READ_AFTER_LOADING],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    ready = json.loads(done.stdout.strip().splitlines()[-1])
    assert ready["modules"] == ["icalendar", "incidents.views.public", "incidents.api.statuspage_views"]
    assert ready["url_tables"] == ready["catalogs"] == ["en", "es", "nb", "ru"]
    assert {"en", "es", "nb", "ru"} <= set(ready["locales"])
    assert {"public/overview.html", "public/incident.html", "public/component.html"} <= set(
        ready["templates"]
    )
