"""How often the public may ask for subscriptions, counted on the atomic counters.

Every submission counts against its client before anything in it is read, so invalid and
refused attempts use up the limit as well. A valid one then counts against its recipient (one
inbox whatever the variant of its address, one chat target, one phone number) and its domain,
since each sends a confirmation there. An SMS code costs money and reaches a person's phone, so
codes have their own, lower limits: per number, per client, and per hour for the whole install.
"""

from django.conf import settings
from django.utils.translation import gettext as _

from incidents.channels.registry import reached_host
from incidents.models import Channel
from incidents.security.address_variants import inbox_key
from incidents.security.rate_limits import allow

WINDOW_SECONDS = 3600
# Codes that may be tried for one number while its code is valid.
CODE_ATTEMPTS = 5


def client_refusal(*, client: str) -> str | None:
    """Counts one submission from `client`; the message to answer with when it is over the limit."""
    if allow(
        "subscribe-client", client, limit=settings.SUBSCRIBE_RATE_PER_CLIENT, window_seconds=WINDOW_SECONDS
    ):
        return None
    return _("Too many subscription requests from your network. Please try again in an hour.")


def recipient_refusal(*, channel: Channel, email: str, target: str, client: str) -> str | None:
    """Counts one confirmation about to be sent for a valid subscription; the message to answer
    with when one of its limits is reached."""
    if channel == Channel.SMS:
        if not _allow("sms-code-number", target, limit=settings.SMS_CODES_PER_NUMBER):
            return _(
                "Too many codes were sent to this number. Look for the one we already sent, or try again in an hour."
            )
        if not _allow("sms-code-client", client, limit=settings.SMS_CODES_PER_CLIENT):
            return _("Too many codes were asked for from your network. Please try again in an hour.")
        if not _allow("sms-code-install", "all", limit=settings.SMS_CODES_PER_HOUR):
            return _("Too many codes are being sent right now. Please try again in an hour.")
        return None
    if channel.uses_target:
        recipient, domain = target, reached_host(channel, target)
        over_recipient = _(
            "Too many requests for this target. Look for the message we already sent, or try again in an hour."
        )
    else:
        recipient = inbox_key(email)
        domain = recipient.rpartition("@")[2]
        over_recipient = _(
            "Too many requests for this address. Look for the email we already sent, or try again in an hour."
        )
    if not _allow("subscribe-address", recipient, limit=settings.SUBSCRIBE_RATE_PER_ADDRESS):
        return over_recipient
    if domain and not _allow("subscribe-domain", domain, limit=settings.SUBSCRIBE_RATE_PER_DOMAIN):
        return _("Too many requests for this domain. Please try again in an hour.")
    return None


def code_attempt_refusal(*, subscriber_id: str) -> str | None:
    """Counts one code entered for a number: a code of six digits must not be guessed."""
    if allow(
        "sms-code-attempt",
        subscriber_id,
        limit=CODE_ATTEMPTS,
        window_seconds=settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS,
    ):
        return None
    return _("Too many wrong codes. Subscribe the number again later to be sent a new one.")


def _allow(scope: str, key: str, *, limit: int) -> bool:
    return allow(scope, key, limit=limit, window_seconds=WINDOW_SECONDS)
