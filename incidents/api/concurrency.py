"""Optimistic concurrency: ETags on reads, `If-Match` (412) or a `version` field (409) on writes."""

import hashlib

from django.db import models

from .errors import Conflict, PreconditionFailed


def etag_for(obj: models.Model) -> str:
    """Versioned objects are tagged by version, the others by their last change; records that
    never change (samples, audit events) by their id."""
    version = getattr(obj, "version", None)
    if version is not None:
        return f'"v{version}"'
    updated_at = getattr(obj, "updated_at", None)
    if updated_at is None:
        return f'"{obj.pk}"'
    return '"' + hashlib.sha256(updated_at.isoformat().encode()).hexdigest()[:16] + '"'


def check_if_match(request, current: models.Model) -> None:
    """Refuses the write with 412 when If-Match names none of the current ETag (or `*`)."""
    header = request.headers.get("If-Match")
    if not header:
        return
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    if "*" not in tags and etag_for(current) not in tags:
        raise PreconditionFailed()


def check_version(current: models.Model, version: int | None) -> None:
    """Refuses the write with 409 when the body's `version` is not the stored one."""
    if version is not None and version != current.version:
        raise Conflict()
