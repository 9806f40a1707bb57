"""What every chat service module shares: reading the Apprise-style URL a subscriber keeps
its service under (`scheme://user:password@host:port/path?key=value`) and the message it is
sent."""

from dataclasses import dataclass, field
from urllib.parse import unquote


@dataclass(frozen=True)
class Message:
    title: str
    text: str  # Markdown
    event_id: str  # the same for every retry of one notification


@dataclass(frozen=True)
class Target:
    scheme: str
    netloc: str  # as written: Telegram's bot token looks like host:port to a URL parser
    user: str
    password: str
    host: str
    port: str
    path: str  # as written, from its "/" on
    segments: list[str]
    query: dict[str, str] = field(default_factory=dict)

    def origin(self, *, secure: bool) -> str:
        if self.port and not self.port.isdigit():
            raise ValueError("the port is not a number")
        port = f":{self.port}" if self.port else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if secure else 'http'}://{host}{port}"


def split_target(target: str) -> Target:
    """The parts of `target`; raises ValueError when it has none of them."""
    scheme, separator, rest = target.strip().partition("://")
    if not separator:
        raise ValueError("no scheme")
    rest, _, query = rest.partition("?")
    netloc, _, path = rest.partition("/")
    userinfo, _, hostport = netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    host, port = hostport, ""
    if hostport.startswith("["):
        host, _, port = hostport[1:].partition("]")
        port = port.removeprefix(":")
    elif hostport.count(":") == 1:
        host, port = hostport.split(":")
    pairs = (pair.partition("=") for pair in query.split("&") if pair)
    return Target(
        scheme=scheme.lower(),
        netloc=netloc,
        user=unquote(user),
        password=unquote(password),
        host=host.lower(),
        port=port,
        path="/" + path if path or rest.endswith("/") else "",
        segments=[unquote(segment) for segment in path.split("/") if segment],
        query={unquote(key): unquote(value) for key, _, value in pairs},
    )


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
