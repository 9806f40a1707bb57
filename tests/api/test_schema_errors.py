"""The schema documents every error answer of /api/v1/, and the real answers fit it."""

import jsonschema
import pytest

WRITES = {"post", "put", "patch", "delete"}


@pytest.fixture
def schema(client):
    return client.get("/api/schema/?format=json").json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in WRITES | {"get"}:
                yield path, method, operation


def documented(schema, path, method, status):
    return schema["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]


def assert_fits(schema, body, path, method, status):
    body_schema = documented(schema, path, method, status)
    jsonschema.validate(body, {**body_schema, "components": schema["components"]})


def test_every_operation_documents_its_error_answers_with_a_body(schema):
    gaps = []
    for path, method, operation in operations(schema):
        expected = {"401", "403"}
        if "{" in path:
            expected.add("404")
        if method in WRITES:
            expected.add("400")
        if method == "patch":
            expected |= {"409", "412"}
        for status in expected:
            answer = operation["responses"].get(status, {})
            if "application/json" not in answer.get("content", {}):
                gaps.append(f"{method.upper()} {path} {status}")
    assert gaps == []
    assert sum(1 for _ in operations(schema)) > 40


def test_version_checked_writes_document_409_and_412(schema):
    for path, method in [
        ("/api/v1/incidents/{id}/", "patch"),
        ("/api/v1/incidents/{id}/updates/", "post"),
        ("/api/v1/incidents/{id}/resolve/", "post"),
        ("/api/v1/postmortems/{id}/", "patch"),
        ("/api/v1/subscribers/{id}/", "delete"),
    ]:
        assert {"409", "412"} <= set(schema["paths"][path][method]["responses"]), (method, path)


def test_the_error_bodies_are_shared_components(schema):
    errors = schema["components"]["schemas"]
    assert errors["ErrorDetail"]["required"] == ["detail"]
    assert documented(schema, "/api/v1/incidents/", "get", 401) == {
        "$ref": "#/components/schemas/ErrorDetail"
    }


def test_a_real_401_and_404_fit_their_documented_bodies(schema, api, page, client_as):
    anonymous = api.get("/api/v1/incidents/")
    missing = client_as("viewer").get("/api/v1/incidents/zzzzzzzz/")

    assert anonymous.status_code == 401
    assert_fits(schema, anonymous.json(), "/api/v1/incidents/", "get", 401)
    assert missing.status_code == 404
    assert_fits(schema, missing.json(), "/api/v1/incidents/{id}/", "get", 404)


def test_a_real_400_403_409_and_412_fit_their_documented_bodies(schema, page, client_as):
    incident = page["incident"]
    url = f"/api/v1/incidents/{incident.public_id}/"
    admin = client_as("admin")

    invalid = admin.patch(url, {"impact": "apocalyptic"}, format="json")
    refused = client_as("viewer").patch(url, {"impact": "major"}, format="json")
    stale = admin.patch(url, {"impact": "major", "version": incident.version - 1}, format="json")
    unmatched = admin.patch(url, {"impact": "major"}, format="json", HTTP_IF_MATCH='"v999"')
    already = admin.post(
        f"/api/v1/incidents/{page['resolved'].public_id}/resolve/",
        {"body": "Again.", "language": "en"},
        format="json",
    )

    assert invalid.status_code == 400 and "impact" in invalid.json()
    assert_fits(schema, invalid.json(), "/api/v1/incidents/{id}/", "patch", 400)
    assert refused.status_code == 403
    assert_fits(schema, refused.json(), "/api/v1/incidents/{id}/", "patch", 403)
    assert stale.status_code == 409
    assert_fits(schema, stale.json(), "/api/v1/incidents/{id}/", "patch", 409)
    assert unmatched.status_code == 412
    assert_fits(schema, unmatched.json(), "/api/v1/incidents/{id}/", "patch", 412)
    assert already.status_code == 409
    assert_fits(schema, already.json(), "/api/v1/incidents/{id}/resolve/", "post", 409)


def test_a_page_a_list_does_not_have_is_a_documented_404(schema, page, client_as):
    viewer = client_as("viewer")
    for asked in ("0", "999"):
        missing = viewer.get(f"/api/v1/incidents/?page={asked}")

        assert missing.status_code == 404
        assert_fits(schema, missing.json(), "/api/v1/incidents/", "get", 404)
