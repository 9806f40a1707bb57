"""Property-based run of schemathesis against our own OpenAPI schema.

Every operation of /api/v1/ gets a bounded number of generated requests, authenticated
with a read-write token of an admin, on the test database seeded with a small page
(with probes of each scheduled kind and push, and a subscriber).
No response may be a server error, and every documented response must match the schema.
"""

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from incidents.models import ApiToken, TokenScope
from incidents.models.api_tokens import token_digest

# A short search by default, so `make test` stays quick; .ci/run asks for the full one
# (SCHEMATHESIS_EXAMPLES=8), and a deeper search locally is SCHEMATHESIS_EXAMPLES=100.
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "2"))

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
# One test per operation, named after it: `schema.parametrize()` gives every item the same node
# id, which pytest-xdist (make test, .ci/run) collapses into one item testing one operation.
OPERATIONS = [result.ok() for result in schema.get_all_operations()]


@pytest.fixture
def write_token(page, probes, subscriber, admin, token_for):
    return token_for(admin, TokenScope.READ_WRITE)


@pytest.fixture
def intake_token(admin, token_for):
    """Alert intake takes only a token of its own scope (any other is refused by design)."""
    return token_for(admin, TokenScope.INTAKE)


@pytest.fixture
def keep_test_connection():
    # The WSGI handler closes "old" connections around each request, which would close the
    # test transaction's connection; Django's test client disconnects the same handlers.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
@given(data=st.data())
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_within_its_schema(operation, data, write_token, intake_token, keep_test_connection):
    case = data.draw(operation.as_strategy())
    token = intake_token if case.path.startswith("/api/v1/intake/") else write_token
    response = case.call_and_validate(
        # The WSGI transport hands back the body as sent, undecoded: ask for it uncompressed.
        headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"},
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance],
    )
    # An admin's read-write token may do everything: a refusal would mean the run tested nothing,
    # unless the run itself revoked the token (DELETE /api/v1/tokens/{id}/ is one of the operations).
    assert response.status_code != 403, response.text
    if "Authorization" not in response.request.headers:
        # The bearer token is the only scheme of alert intake, so schemathesis counts it as a
        # required header and sends one case without it, overriding ours: it must be refused.
        assert response.status_code == 401, response.text
    elif response.status_code == 401:
        assert ApiToken.objects.get(digest=token_digest(token)).revoked_at is not None
