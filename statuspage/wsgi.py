import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402

from incidents.public import degraded  # noqa: E402 - needs the settings above
from incidents.public.versions import page_version_or_none  # noqa: E402
from statuspage.response_cache import ResponseCache  # noqa: E402

application = ResponseCache(
    django_application,
    current_version=lambda: page_version_or_none(live=True),
    max_age=lambda: settings.PUBLIC_PAGE_CACHE_SECONDS,
    bypass=lambda: degraded.state.down_since is not None,
)
