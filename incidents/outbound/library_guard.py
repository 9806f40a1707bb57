"""The connect-time address guard for HTTP calls made by libraries we do not control (Apprise,
over requests and urllib3, for the SMS provider).

Inside `guarded_connections()`, every connection urllib3 opens resolves its host once, keeps the
addresses the guard allows and connects to one of those addresses, never to the name again. So a
name rebound between a check and the send, or a redirect, reaches no address the guard refuses:
the connection fails with `AddressRefused`, which urllib3 reports as a connection error. The guard also holds in the
worker threads a library starts with a copy of the caller's context, as Apprise does for each
send. Outside the block, urllib3 connects as it always does (other libraries of the process may
reach private services on purpose).
"""

import contextvars
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from urllib3.util import connection

from .guard import AddressRefused, refusal_for

_unguarded_create_connection = connection.create_connection

# The guard's reasons for the connections refused in the current guarded block; None outside one.
_refusals: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "outbound_library_refusals", default=None
)


def _guarded_create_connection(address: tuple[str, int], *args, **kwargs) -> socket.socket:
    refusals = _refusals.get()
    if refusals is None:
        return _unguarded_create_connection(address, *args, **kwargs)
    host, port = address
    infos = socket.getaddrinfo(host.strip("[]"), port, connection.allowed_gai_family(), socket.SOCK_STREAM)
    judged = {info[4][0]: refusal_for(info[4][0]) for info in infos}
    allowed = [found for found, reason in judged.items() if reason is None]
    if not allowed:
        refusal = AddressRefused(
            next((reason for reason in judged.values() if reason), f"{host} has no address")
        )
        refusals.append(refusal.reason)
        raise refusal
    error: OSError | None = None
    for checked in allowed:
        try:
            # An address literal: urllib3 resolves it to itself, nothing is looked up again.
            return _unguarded_create_connection((checked, port), *args, **kwargs)
        except OSError as failure:
            error = failure
    assert error is not None
    raise error


@contextmanager
def guarded_connections() -> Iterator[list[str]]:
    """A block in which urllib3 connects only to addresses the guard allows; yields the list of
    the guard's reasons for the connections it refused, filled as they are refused."""
    connection.create_connection = _guarded_create_connection
    refusals: list[str] = []
    token = _refusals.set(refusals)
    try:
        yield refusals
    finally:
        _refusals.reset(token)
