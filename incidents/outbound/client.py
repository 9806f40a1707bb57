"""The one HTTP client of the platform (aiohttp): probes and outgoing webhooks go through it.

The guard is applied to the address actually connected to, at every request: the resolver
drops every address the guard refuses (so a host name rebound to loopback after it was saved
reaches nothing), and the socket factory judges each address right before `connect`, which also
covers literal-IP URLs (aiohttp does not resolve those) and redirects, should a caller follow them.
"""

import asyncio
import socket
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

from .guard import AddressRefused, refusal_for


class GuardedResolver(AbstractResolver):
    """Resolves with `resolver` (aiohttp's default) and keeps only the addresses the guard allows."""

    def __init__(self, resolver: AbstractResolver | None = None):
        self.resolver = resolver or DefaultResolver()

    async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET) -> list[ResolveResult]:
        answers = await self.resolver.resolve(host, port, family)
        reasons = [refusal_for(answer["host"]) for answer in answers]
        allowed = [answer for answer, reason in zip(answers, reasons, strict=True) if reason is None]
        if not allowed:
            raise AddressRefused(next((reason for reason in reasons if reason), f"{host} has no address"))
        return allowed

    async def close(self) -> None:
        await self.resolver.close()


def guarded_socket(addr_info) -> socket.socket:
    """The socket for one address the connector is about to connect to, if the guard allows it."""
    family, type_, proto, _canonical_name, address = addr_info
    reason = refusal_for(address[0])
    if reason:
        raise AddressRefused(reason)
    return socket.socket(family=family, type=type_, proto=proto)


def open_session(*, resolver: AbstractResolver | None = None, **session_options) -> aiohttp.ClientSession:
    """A guarded session; call it inside the event loop that will use it.

    No connection limits (callers bound their own concurrency; the connector's limits would queue
    silently), no cookie jar (targets must not share cookies), no proxy from the environment."""
    connector = aiohttp.TCPConnector(
        limit=0,
        limit_per_host=0,
        ttl_dns_cache=60,
        resolver=GuardedResolver(resolver),
        socket_factory=guarded_socket,
    )
    return aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar(), trust_env=False, **session_options
    )


def refusal_in(error: BaseException) -> str | None:
    """The guard's reason if `error` (or what caused it) is a refused address."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, AddressRefused):
            return current.reason
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


# What of an answer is kept: enough for the small JSON some services answer with (a room id).
ANSWER_BYTES = 16384


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes = b""


class BlockingClient:
    """The guarded client for synchronous code (the notification worker): one event loop and one
    session for as long as the `with` block lasts."""

    def __enter__(self) -> "BlockingClient":
        self.runner = asyncio.Runner()
        self.session = self.runner.run(self._open())
        return self

    async def _open(self) -> aiohttp.ClientSession:
        return open_session()

    def __exit__(self, *exc_info: object) -> None:
        self.runner.run(self.session.close())
        self.runner.close()

    def request(self, method: str, url: str, **options: Any) -> Answer:
        """Sends without following redirects (`options` as `_request` takes them); raises
        AddressRefused, aiohttp.ClientError or TimeoutError."""
        return self.runner.run(self._request(method, url, **options))

    def post_all(
        self, requests: list[tuple[str, bytes, dict[str, str]]], *, timeout: float
    ) -> list[Answer | BaseException]:
        """POSTs (url, body, headers) requests concurrently; for each, in order, its answer or
        the exception `request` would have raised."""

        async def post_all() -> list[Answer | BaseException]:
            posts = (
                self._request("POST", url, body=body, headers=headers, timeout=timeout)
                for url, body, headers in requests
            )
            return await asyncio.gather(*posts, return_exceptions=True)

        return self.runner.run(post_all())

    async def _request(
        self,
        method: str,
        url: str,
        *,
        body: bytes,
        headers: dict[str, str],
        timeout: float,
        verify: bool = True,
    ) -> Answer:
        async with self.session.request(
            method,
            url,
            data=body,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=timeout),
            allow_redirects=False,
            ssl=verify,
        ) as response:
            return Answer(response.status, await response.content.read(ANSWER_BYTES))
