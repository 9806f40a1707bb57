import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
application = get_asgi_application()

from statuspage.warm_up import warm_up  # noqa: E402 - needs the apps loaded above

warm_up()
