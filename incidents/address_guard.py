"""Which URLs the platform may call: probes and outgoing webhooks share this guard.

Only http and https. By default no loopback, private, link-local or cloud-metadata targets, so
a status page cannot be turned into a scanner of its own network; OUTBOUND_ALLOW_PRIVATE_TARGETS
lifts that for private networks (never for metadata addresses).
"""

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

METADATA_HOSTS = {"metadata.google.internal", "metadata", "instance-data"}
METADATA_ADDRESSES = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


def _addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host}) from None
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


def check_url(url: str, *, resolve: bool = True) -> None:
    """Raises ValidationError unless `url` is an http(s) URL to an allowed address."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValidationError(_("Only http and https URLs are allowed."))
    host = (parts.hostname or "").lower()
    if not host:
        raise ValidationError(_("The URL has no host."))
    if host in METADATA_HOSTS:
        raise ValidationError(_("Cloud metadata addresses are never allowed."))
    if not resolve:
        return
    allow_private = getattr(settings, "OUTBOUND_ALLOW_PRIVATE_TARGETS", False)
    for address in _addresses(host):
        if address in METADATA_ADDRESSES:
            raise ValidationError(_("Cloud metadata addresses are never allowed."))
        if address.is_link_local and not allow_private:
            raise ValidationError(_("Link-local addresses are not allowed."))
        if (address.is_loopback or address.is_private or address.is_reserved) and not allow_private:
            raise ValidationError(
                _(
                    "%(host)s is a private or loopback address; set OUTBOUND_ALLOW_PRIVATE_TARGETS to allow it."
                )
                % {"host": host}
            )
