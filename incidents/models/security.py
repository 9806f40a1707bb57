"""Counters of the login protection and the rate limits, when there is no Redis to keep them."""

from django.db import models


class Counter(models.Model):
    """Hits of one key in a fixed window; incremented in one statement (incidents.security.counters)."""

    # "<scope>:<digest>": addresses and typed user names are never stored as they came.
    key = models.CharField(max_length=120, unique=True)
    count = models.PositiveIntegerField(default=0)
    window_ends_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
