"""Which addresses and URLs the platform may call: probes, outgoing webhooks and, later, clients
we do not control.

An address is allowed only when it is globally routable (`is_global`, and not multicast,
reserved, unspecified, "this network" 0.0.0.0/8 or shared address space 100.64.0.0/10).
OUTBOUND_ALLOW_PRIVATE_TARGETS lifts that for private, loopback, shared and documentation
addresses, never for the rest:
- cloud metadata addresses (every known one) and metadata host names;
- link-local ranges (169.254.0.0/16, fe80::/10): metadata services of several clouds live there
  at addresses nobody has listed yet, and a monitored service on link-local is rare enough that
  we do not allow it at all;
- multicast, reserved, unspecified and 0.0.0.0/8 (Linux connects 0.0.0.0 to its own loopback).
IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) are
judged by that IPv4 address, so `[::ffff:169.254.169.254]` is the metadata address it is.

`check_url` is the save-time check; the HTTP client applies `refusal_for` to every address it
connects to, which is what protects against DNS rebinding. Refusals shown to the public never
say what a name resolved to (`check_host_addresses`).
"""

import errno
import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_URL_LENGTH = 2000
METADATA_HOSTS = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "metadata.azure.internal",
        "metadata.tencentyun.com",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(text)
    for text in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, Hetzner…
        "169.254.169.253",  # AWS VPC DNS
        "169.254.169.123",  # AWS time sync
        "169.254.170.2",  # AWS ECS task metadata and credentials
        "169.254.170.23",  # AWS EKS pod identity agent
        "169.254.0.23",  # Tencent Cloud
        "100.100.100.200",  # Alibaba Cloud
        "168.63.129.16",  # Azure WireServer (a public address)
        "fd00:ec2::254",  # AWS, IPv6
        "fd00:ec2::253",
        "fd00:ec2::123",
        "fd00:ec2::23",
    )
)
THIS_NETWORK = ipaddress.ip_network("0.0.0.0/8")
SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")
NAT64 = ipaddress.ip_network("64:ff9b::/96")
LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


class AddressRefused(OSError):
    """Raised at connection time; an OSError so HTTP clients report it as a connection error."""

    def __init__(self, reason: str):
        super().__init__(errno.EACCES, reason)
        self.reason = reason


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, if it is one of the forms that carry one."""
    if address.version == 4:
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    low32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in NAT64:
        return low32
    if address in LOCAL_NAT64 and (int(address) >> 32) & 0xFFFF_FFFF_FFFF == 0:
        # Only the /96 layout can be read without knowing the operator's prefix length; the
        # others are judged as themselves (reserved, so refused).
        return low32
    if address in IPV4_COMPATIBLE and int(address) > 1:
        return low32
    return None


def _never_allowed(address: Address) -> str | None:
    if address in METADATA_ADDRESSES:
        return _("Cloud metadata addresses are never allowed.")
    if address.is_link_local:
        return _("Link-local addresses (169.254.0.0/16, fe80::/10) are never allowed.")
    if address.is_multicast:
        return _("Multicast addresses are never allowed.")
    if address.is_unspecified or (address.version == 4 and address in THIS_NETWORK):
        return _("The unspecified address and 0.0.0.0/8 are never allowed.")
    if address.is_reserved and not address.is_loopback:  # ::1 lies in the reserved ::/8
        return _("Reserved addresses are never allowed.")
    return None


def _lifted_by_setting(address: Address) -> bool:
    in_shared = address.version == 4 and address in SHARED_ADDRESS_SPACE
    return address.is_private or address.is_loopback or in_shared


def refusal_for(address: Address | str, *, allow_private: bool | None = None) -> str | None:
    """Why the platform may not connect to `address`, or None when it may."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address.split("%", 1)[0])
    if allow_private is None:
        allow_private = settings.OUTBOUND_ALLOW_PRIVATE_TARGETS
    address = embedded_ipv4(address) or address
    reason = _never_allowed(address)
    if reason:
        return reason
    if address.is_global:  # for IPv4 this already excludes shared address space
        return None
    if allow_private and _lifted_by_setting(address):
        return None
    return _(
        "%(address)s is a private or loopback address; set OUTBOUND_ALLOW_PRIVATE_TARGETS to allow it."
    ) % {"address": address}


def check_url_shape(url: str) -> str:
    """Raises ValidationError unless `url` is an http(s) URL we could call; returns its host.

    Shape only, no address: an unchanged stored URL is checked with this alone."""
    if len(url) > MAX_URL_LENGTH:
        raise ValidationError(
            _("The URL is too long (at most %(limit)s characters).") % {"limit": MAX_URL_LENGTH}
        )
    if any(character.isspace() or ord(character) < 32 or ord(character) == 127 for character in url):
        raise ValidationError(_("The URL cannot contain spaces or control characters."))
    parts = _split(url)
    if parts.username is not None or parts.password is not None:
        raise ValidationError(_("Credentials in the URL are not allowed; send them in a header."))
    return check_sendable(url)


def check_sendable(url: str) -> str:
    """The checks a stored URL must still pass right before a send: http(s) and an allowed host
    name (its addresses are judged by the client as it connects); returns the host."""
    parts = _split(url)
    if parts.scheme not in ("http", "https"):
        raise ValidationError(_("Only http and https URLs are allowed."))
    return check_host_name(parts.hostname or "")


def _split(url: str):
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port out of range
    except ValueError:
        raise ValidationError(_("Enter a valid http or https URL.")) from None
    return parts


def check_host_name(host: str) -> str:
    host = host.lower().rstrip(".")
    if not host:
        raise ValidationError(_("The URL has no host."))
    if host in METADATA_HOSTS:
        raise ValidationError(_("Cloud metadata addresses are never allowed."))
    try:
        host.encode("idna")
    except UnicodeError:
        raise ValidationError(_("The host name is not valid.")) from None
    return host


def _literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def addresses_of(host: str) -> list[Address]:
    """The addresses `host` stands for: itself if it is an address, else what DNS answers now."""
    literal = _literal(host)
    if literal is not None:
        return [literal]
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host}) from None
    return [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]


def unreachable() -> str:
    return _("This address cannot be reached from here.")


def check_host_addresses(host: str, *, explain: bool = False) -> None:
    """Raises ValidationError unless every address `host` stands for now is allowed.

    For a name, the reason tells what it resolved to, so it is given only when `explain` (staff
    screens, delivery errors). Everyone else reads `unreachable()`, the same whether the name
    resolves to a refused address or not at all: a public form must not map the internal DNS.
    An address typed as such is only judged, so its reason is always given."""
    try:
        addresses = addresses_of(host)
    except ValidationError:
        if explain:
            raise
        raise ValidationError(unreachable()) from None
    explain = explain or _literal(host) is not None
    for address in addresses:
        reason = refusal_for(address)
        if reason:
            raise ValidationError(reason if explain else unreachable())


def check_url(url: str, *, resolve: bool = True, explain: bool = False) -> None:
    """Raises ValidationError unless `url` is an http(s) URL to an allowed address (resolved now);
    `explain` as for `check_host_addresses`."""
    host = check_url_shape(url)
    if resolve:
        check_host_addresses(host, explain=explain)
