"""The address of the client, taken from a trusted proxy's header when one is configured."""

from django.conf import settings


def client_address(request) -> str:
    """REMOTE_ADDR, or with TRUSTED_PROXY_HEADER set, the address our own proxies saw.

    Each of the TRUSTED_PROXY_COUNT proxies appends the address it was called from, so the
    client is that many entries from the right: anything further left was sent by the client
    and may be forged. Without the setting the header is ignored, whatever it says.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    header = settings.TRUSTED_PROXY_HEADER
    if not header:
        return remote
    meta_name = "HTTP_" + header.upper().replace("-", "_")
    hops = [hop.strip() for hop in request.META.get(meta_name, "").split(",") if hop.strip()]
    if len(hops) < settings.TRUSTED_PROXY_COUNT:
        return remote
    return hops[-settings.TRUSTED_PROXY_COUNT]
