"""A metric's past samples, imported in bulk (/api/v1/metrics/{id}/samples/import/)."""
