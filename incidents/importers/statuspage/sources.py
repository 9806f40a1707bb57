"""Where an export comes from: a file, or an http(s) URL fetched through the outbound guard."""

import asyncio

import aiohttp
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.outbound.client import open_session, refusal_in
from incidents.outbound.guard import check_url

from .parsing import MAX_DOCUMENT_BYTES

FETCH_TIMEOUT_SECONDS = 60


def read_source(source: str) -> bytes:
    """The bytes of a file path, or of an http(s) URL fetched through the outbound guard."""
    if source.startswith(("http://", "https://")):
        return fetch(source)
    try:
        with open(source, "rb") as handle:
            return handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise ValidationError(
            _("Cannot read %(source)s: %(error)s") % {"source": source, "error": error}
        ) from None


def fetch(url: str) -> bytes:
    check_url(url, explain=True)
    try:
        return asyncio.run(_fetch(url))
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        reason = refusal_in(error) or str(error) or type(error).__name__
        raise ValidationError(
            _("Cannot fetch %(url)s: %(reason)s") % {"url": url, "reason": reason}
        ) from None


async def _fetch(url: str) -> bytes:
    async with open_session() as session:
        timeout = aiohttp.ClientTimeout(total=FETCH_TIMEOUT_SECONDS)
        async with session.get(url, timeout=timeout, allow_redirects=False) as response:
            if response.status != 200:
                raise aiohttp.ClientError(_("the server answered %(status)s") % {"status": response.status})
            return await response.content.read(MAX_DOCUMENT_BYTES + 1)
