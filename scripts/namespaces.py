"""Network namespaces for the drills: a place of its own (a region, a node) joined to the root
namespace by a veth pair on a /30, routing everything through it, so the drill can cut it off
from some addresses of the root namespace with blackhole routes inside it. Needs root and `ip`.

Addresses: the place numbered n in the network `prefix` (two octets, e.g. "10.250") is
`<prefix>.<n>.2`, the root namespace's end of its pair `<prefix>.<n>.1`; the services it
reaches listen on addresses put on the root namespace's `lo` (`<prefix>.0.x`).
"""

import os
import shutil
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    namespace: str
    veth: str  # the root namespace's end; the other end is `<veth>n` (15 characters at most)
    prefix: str
    number: int

    @property
    def address(self) -> str:
        return f"{self.prefix}.{self.number}.2"

    @property
    def gateway(self) -> str:
        return f"{self.prefix}.{self.number}.1"

    def command(self, command: list[str]) -> list[str]:
        """`command` run inside this namespace: `ip netns exec` execs it, so its process id is
        the command's own."""
        return ["ip", "netns", "exec", self.namespace, *command]


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def unavailable() -> str | None:
    """Why network namespaces cannot be made here (not root, no `ip`, a container without the
    right), or None."""
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    if os.geteuid() != 0:
        return "network namespaces need root"
    trial = f"drill-check-{os.getpid()}"
    made = ip("netns", "add", trial, check=False)
    if made.returncode != 0:
        return f"cannot make a network namespace: {made.stderr.strip()}"
    ip("netns", "del", trial, check=False)
    return None


def build(places: list[Place], *, local: list[str]) -> None:
    """The namespaces, their veth pairs and routes, and the `local` addresses on the root
    namespace's `lo`; whatever a run before left behind is removed first."""
    remove(places, local=local)
    for address in local:
        ip("addr", "add", f"{address}/32", "dev", "lo")
    for place in places:
        inside = f"{place.veth}n"
        ip("netns", "add", place.namespace)
        ip("link", "add", place.veth, "type", "veth", "peer", "name", inside)
        ip("link", "set", inside, "netns", place.namespace)
        ip("addr", "add", f"{place.gateway}/30", "dev", place.veth)
        ip("link", "set", place.veth, "up")
        ip("-n", place.namespace, "addr", "add", f"{place.address}/30", "dev", inside)
        ip("-n", place.namespace, "link", "set", inside, "up")
        ip("-n", place.namespace, "link", "set", "lo", "up")
        ip("-n", place.namespace, "route", "add", "default", "via", place.gateway)


def remove(places: list[Place], *, local: list[str]) -> None:
    for place in places:
        ip("netns", "del", place.namespace, check=False)  # takes its end of the veth pair along
        ip("link", "del", place.veth, check=False)
    for address in local:
        ip("addr", "del", f"{address}/32", "dev", "lo", check=False)


def blackhole(place: Place, addresses: list[str], *, on: bool) -> None:
    """Packets from `place` to `addresses` vanish (on) or flow again (off). Connections open at
    the cut are not reset: they hang, as across a real partition, until it heals."""
    for address in addresses:
        ip("-n", place.namespace, "route", "add" if on else "del", "blackhole", f"{address}/32")


def pids(place: Place) -> list[int]:
    """Every process running in the namespace."""
    listed = ip("netns", "pids", place.namespace, check=False).stdout.split()
    return [int(pid) for pid in listed]
