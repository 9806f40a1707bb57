"""The error answers of /api/v1/ in the OpenAPI schema, each with the body errors.py gives it.

A drf-spectacular postprocessing hook, so every operation documents them once, here, rather
than in each view's `extend_schema`.
"""

WRITE_METHODS = {"post", "put", "patch", "delete"}

ERROR_SCHEMAS = {
    "ErrorDetail": {
        "type": "object",
        "description": "A failure that is not about one field.",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    },
    "FieldErrors": {
        "type": "object",
        "description": "Messages per field: {field: [message, …]}; a nested field holds its own errors.",
        "additionalProperties": {
            "anyOf": [
                {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "object"}]}},
                {"type": "object"},
            ]
        },
    },
}
DETAIL = {"$ref": "#/components/schemas/ErrorDetail"}
DETAIL_OR_FIELDS = {"anyOf": [{"$ref": "#/components/schemas/FieldErrors"}, DETAIL]}

# status -> (description, body schema)
ANSWERS = {
    400: ("Invalid request: the body, a query parameter or the JSON itself.", DETAIL_OR_FIELDS),
    401: ("Not authenticated: no or an unknown token or session.", DETAIL),
    403: ("The role or the token's scope does not allow this.", DETAIL),
    404: ("No such object (or no such page of a list), or not one this account may see.", DETAIL),
    409: (
        "Conflict: the `version` sent is stale, the object was changed meanwhile, "
        "or its state does not allow this step.",
        DETAIL_OR_FIELDS,
    ),
    412: ("If-Match does not match the object's current ETag.", DETAIL),
    413: ("The request body is larger than the API accepts.", DETAIL),
}


def error_statuses(path: str, method: str, operation: dict) -> list[int]:
    """The error answers an operation can give.

    Every operation needs an account (401) of a role that allows it (403); one on an object
    may find none, and a list may have no page of the number asked for (404); a write or a
    filtered read may be invalid (400); a write may be too large (413). An edit (PATCH), and
    every write that already names 412, checks If-Match and the object's version (409, 412).
    """
    statuses = [401, 403]
    is_write = method in WRITE_METHODS
    query = {
        parameter["name"] for parameter in operation.get("parameters", []) if parameter.get("in") == "query"
    }
    if "{" in path or "page" in query:
        statuses.append(404)
    if is_write or query:
        statuses.append(400)
    if is_write:
        statuses.append(413)
    if method == "patch" or "412" in operation.get("responses", {}):
        statuses += [409, 412]
    return statuses


def add_error_responses(result, generator, request, public):
    """Postprocessing hook: documents each error answer, with its body, on every operation."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(ERROR_SCHEMAS)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in WRITE_METHODS | {"get", "head"}:
                continue
            responses = operation.setdefault("responses", {})
            for code in error_statuses(path, method, operation):
                description, schema = ANSWERS[code]
                answer = responses.setdefault(str(code), {"description": description})
                answer.setdefault("content", {"application/json": {"schema": schema}})
    return result
