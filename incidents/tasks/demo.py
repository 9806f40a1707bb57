"""The demo page's live figures (`DEMO_FEED=1`, set by `make run`): one sample per demo metric a minute."""

from celery import shared_task
from django.conf import settings

from incidents.demo.feed import feed_demo


@shared_task(name="incidents.demo.feed")
def feed() -> int:
    """Records one synthetic sample per demo metric; does nothing unless DEMO_FEED is on."""
    if not settings.DEMO_FEED:
        return 0
    return feed_demo()
