"""Bounds on what the platform accepts, shared by the API, the editor, the admin and the services."""
