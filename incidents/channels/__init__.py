"""Notification channels, one module (or package) per kind, each a `base.Transport`; the
registry the outbox sends through (`registry`) and every e-mail the platform sends (`emails`)."""
