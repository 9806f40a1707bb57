"""Fixtures of the configuration tests: documents as files, and names that resolve to a public address."""

import ipaddress

import pytest
import yaml

from incidents.configuration.document import to_yaml
from incidents.configuration.export import export_document
from tests.api.conftest import client_as, token_for  # noqa: F401 (the API tests' personas)


@pytest.fixture
def public_dns(monkeypatch):
    """Every host name resolves to one public address, so the outbound guard judges the URL only."""
    monkeypatch.setattr(
        "incidents.outbound.guard.addresses_of", lambda host: [ipaddress.ip_address("93.184.216.34")]
    )


@pytest.fixture
def config_file(tmp_path):
    """Writes a document (a dict, or YAML text) to a file and returns its path."""

    def write(document, name="config.yaml") -> str:
        path = tmp_path / name
        path.write_text(document if isinstance(document, str) else to_yaml(document), encoding="utf-8")
        return str(path)

    return write


def exported() -> dict:
    """The configuration as `config export` writes it, read back."""
    return yaml.safe_load(to_yaml(export_document()))
