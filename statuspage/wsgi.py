import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
django_application = get_wsgi_application()

from django.conf import settings  # noqa: E402

from incidents import degraded  # noqa: E402 - needs the settings above
from incidents.page_cache import content_version_or_none  # noqa: E402
from statuspage.response_cache import ResponseCache  # noqa: E402

application = ResponseCache(
    django_application,
    current_version=content_version_or_none,
    max_age=lambda: settings.PUBLIC_PAGE_CACHE_SECONDS,
    bypass=lambda: degraded.state.down_since is not None,
)
