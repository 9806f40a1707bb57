"""Debug pages and error reports without secrets (settings DEFAULT_EXCEPTION_REPORTER_FILTER).

Django hides settings whose names sound secret (PASSWORD, SECRET_KEY…), but a password inside a
URL-shaped value (DATABASE_URL, REDIS_URL, CELERY_BROKER_URL, a cache LOCATION) goes through,
and so do the environment variables the development server copies into request.META. This
filter also masks the password of every URL, and secret-looking query parameters, in settings,
request.META, cookies and the local variables of each frame; the reporter (settings
DEFAULT_EXCEPTION_REPORTER) masks them in the exception's message.
"""

import re

from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

MASK = "********"
# Greedy up to the last "@": a password may hold an unencoded "@" (masking too much is safe).
URL_PASSWORD = re.compile(r"(?P<head>\b[a-z][a-z0-9+.-]*://[^\s:/@]*:)\S+@", re.IGNORECASE)
SECRET_QUERY = re.compile(
    r"(?P<head>[?&;](?:password|passwd|pwd|secret|token|key|api[_-]?key|access[_-]?token|signature)=)[^&;\s#]+",
    re.IGNORECASE,
)


def masked(text: str) -> str:
    """`text` with the password of every URL in it, and secret query values, replaced by stars."""
    if "://" not in text and "=" not in text:
        return text
    text = URL_PASSWORD.sub(rf"\g<head>{MASK}@", text)
    return SECRET_QUERY.sub(rf"\g<head>{MASK}", text)


def masked_values(value):
    """Strings masked, also inside dicts, lists and tuples; any other value as it is."""
    if isinstance(value, str):
        return masked(value)
    if isinstance(value, dict):
        return {key: masked_values(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(masked_values(item) for item in value)
    return value


class SecretMaskingFilter(SafeExceptionReporterFilter):
    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|CREDENTIAL|PRIVATE|DSN", flags=re.IGNORECASE
    )

    def cleanse_setting(self, key, value):
        # Django recurses into dicts, lists and tuples through this method, so nested values
        # (CACHES["default"]["LOCATION"]) are masked here too.
        cleansed = super().cleanse_setting(key, value)
        return masked(cleansed) if isinstance(cleansed, str) else cleansed

    def get_traceback_frame_variables(self, request, tb_frame):
        return [
            (name, masked_values(value))
            for name, value in super().get_traceback_frame_variables(request, tb_frame)
        ]


class SecretMaskingReporter(ExceptionReporter):
    def get_traceback_data(self):
        data = super().get_traceback_data()
        if "exception_value" in data:
            data["exception_value"] = masked(str(data["exception_value"]))
        for frame in data["frames"]:
            # Values are printed by now: what an object's repr shows is masked as well.
            frame["vars"] = [(name, masked(printed)) for name, printed in frame.get("vars", [])]
        return data
