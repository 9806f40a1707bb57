"""A DNS that rebinds: one host name answers a public address while a URL is validated, then
loopback when told, as an attacker's DNS server would. The platform's code is not replaced:
only the name service every resolver in this process asks (socket.getaddrinfo)."""

import socket

PUBLIC_ADDRESS = "93.184.216.34"


class RebindingDns:
    host = "rebind.example"

    def __init__(self, monkeypatch):
        self.answer = PUBLIC_ADDRESS
        self.pending: list[str] = []
        self.lookups = 0
        real = socket.getaddrinfo

        def getaddrinfo(host, *args, **kwargs):
            name = host.decode() if isinstance(host, bytes) else host
            if isinstance(name, str) and name.rstrip(".").lower() == self.host:
                host = self._next_answer()
            return real(host, *args, **kwargs)

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    def url(self, port: int, path: str = "/") -> str:
        return f"http://{self.host}:{port}{path}"

    def rebind(self, *addresses: str) -> None:
        """The next lookups answer `addresses` in turn; the last one stays."""
        self.pending = list(addresses)

    def _next_answer(self) -> str:
        self.lookups += 1
        if self.pending:
            self.answer = self.pending.pop(0)
        return self.answer
