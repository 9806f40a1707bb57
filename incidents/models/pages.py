"""Parts of public pages drawn when what they show changes, not on every request."""

from django.db import models


class OverviewFrame(models.Model):
    """The overview in one language with empty slots where the live metric figures go.

    `version` is the public structure version it was drawn at (incidents.page_cache);
    `layout` maps each component id to its metric ids, in page order, for filling the slots.
    """

    language = models.CharField(max_length=8, unique=True)
    version = models.CharField(max_length=40)
    html = models.BinaryField()  # UTF-8
    layout = models.JSONField(default=dict)
    drawn_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"overview frame ({self.language}, {self.drawn_at:%Y-%m-%d %H:%M:%S})"
