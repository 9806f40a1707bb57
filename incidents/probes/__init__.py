"""Probe kinds, one module each, and the registry that finds a kind's module by name.

Every module has `validate(probe)` (its URL and config, raising ValidationError with a clear
message); every kind we run also has `async measure(spec, session) -> Measurement`.
"""

from types import ModuleType

from incidents.models import ProbeKind

from . import http, push, scrape, upstream, webhook

KINDS: dict[str, ModuleType] = {
    ProbeKind.HTTP: http,
    ProbeKind.WEBHOOK: webhook,
    ProbeKind.SCRAPE: scrape,
    ProbeKind.PUSH: push,
    ProbeKind.UPSTREAM: upstream,
}


def kind_module(kind: str) -> ModuleType:
    return KINDS[ProbeKind(kind)]
