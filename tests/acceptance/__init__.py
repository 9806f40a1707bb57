"""Acceptance tests: real postmortems entered through the REST API, judged where readers see them."""
