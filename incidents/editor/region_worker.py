"""How to start a probe region's worker: the command line an administrator copies to the region,
shown with the region's key in the editor and by `manage.py probe_region`."""

import shlex
import urllib.parse

from django.conf import settings

from incidents.models import ProbeRegion

BROKER_PLACEHOLDER = "redis://<broker host>:6379/0"


def broker_url_for_regions() -> str:
    """The broker every region's workers connect to, its password left for the reader to fill in;
    a placeholder when this site runs on the local file-system broker, which no region can reach."""
    if not settings.REDIS_URL:
        return BROKER_PLACEHOLDER
    parts = urllib.parse.urlsplit(settings.REDIS_URL)
    if parts.password is None:
        return settings.REDIS_URL
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:<password>@{host}"))


def worker_command(region: ProbeRegion, key: str) -> str:
    """ "REDIS_URL=… PROBE_REGION=eu-north PROBE_REGION_KEY=… celery -A statuspage worker -Q probes.eu-north" """
    environment = {
        "REDIS_URL": broker_url_for_regions(),
        "PROBE_REGION": region.name,
        "PROBE_REGION_KEY": key,
    }
    assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in environment.items())
    return f"{assignments} celery -A statuspage worker -Q {region.queue}"
