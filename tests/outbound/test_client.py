"""The guarded HTTP client judges every address it connects to: literal addresses (which aiohttp
does not resolve) and the targets of redirects, should a caller follow them."""

import asyncio

import aiohttp
from aiohttp import web

from incidents.outbound.client import open_session, refusal_in


async def fetch_through_redirect() -> tuple[list[str], BaseException | None]:
    seen: list[str] = []

    async def start(request):
        seen.append(request.path)
        # 0.0.0.0 is never allowed: Linux would connect it to this very server.
        raise web.HTTPFound(f"http://0.0.0.0:{request.url.port}/after-redirect")

    async def after(request):
        seen.append(request.path)
        return web.Response(text="reached")

    app = web.Application()
    app.router.add_get("/start", start)
    app.router.add_get("/after-redirect", after)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    error = None
    try:
        async with open_session() as session:
            async with session.get(f"http://127.0.0.1:{port}/start", allow_redirects=True) as response:
                await response.read()
    except aiohttp.ClientError as raised:
        error = raised
    finally:
        await runner.cleanup()
    return seen, error


def test_a_redirect_to_a_refused_address_is_not_followed(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True

    seen, error = asyncio.run(fetch_through_redirect())

    assert seen == ["/start"]
    assert refusal_in(error) == "The unspecified address and 0.0.0.0/8 are never allowed."


def test_a_literal_loopback_address_is_refused_at_connection_time(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False

    seen, error = asyncio.run(fetch_through_redirect())

    assert seen == []
    assert "127.0.0.1 is a private or loopback address" in refusal_in(error)
