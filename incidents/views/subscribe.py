"""Public subscription pages (subscribe, follow an incident, confirm, manage, unsubscribe) and the
JSON endpoint: the forms validate, the services in incidents/services/subscriptions.py write."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from incidents.channels import links
from incidents.forms.chat_subscriptions import ChatSubscribeForm, SmsCodeForm, chat_channels, chat_sections
from incidents.forms.subscriptions import (
    EmailSubscribeForm,
    FollowForm,
    PreferencesForm,
    SubscribeForm,
    WebhookSubscribeForm,
)
from incidents.models import Channel, Incident, Subscriber
from incidents.security.client_address import client_address
from incidents.services import subscription_limits, subscriptions
from incidents.translation import current_language
from incidents.validation.json_bodies import JsonTooDeep, UnstorableText, loads_bounded
from incidents.validation.request_bodies import body_too_large, read_body_within


def _subscribe_from(form, request, *, incident=None) -> tuple[str | None, Subscriber | None]:
    """Runs the service for a valid form, unless its recipient is over a limit: the limit's
    message, and the subscriber when one was recorded (an error is added to the form if not)."""
    data = form.cleaned_data
    channel = subscriptions.channel_of(
        channel=getattr(form, "channel", ""), endpoint_url=data.get("endpoint_url", "")
    )
    limited = subscription_limits.recipient_refusal(
        channel=channel,
        email=data.get("email", ""),
        target=data.get("target", ""),
        client=client_address(request),
    )
    if limited:
        return limited, None
    try:
        result = subscriptions.subscribe(
            email=data.get("email", ""),
            language=data["language"],
            components=data.get("components"),
            endpoint_url=data.get("endpoint_url", ""),
            channel=channel,
            target=data.get("target", ""),
            incident=incident,
        )
    except ValidationError as error:
        form.add_error(None, error)
        return None, None
    return None, result.subscriber


def _code_path(subscriber) -> str:
    return reverse("subscribe:sms-code", kwargs={"token": links.code_token(subscriber)})


def _submitted_page(request, form, subscriber: Subscriber, context: dict | None = None):
    """Where to look for the confirmation: the inbox, the chat channel, or a page for the code."""
    if subscriber.channel == Channel.SMS:
        return render(
            request, "subscribe/enter_code.html", {"form": SmsCodeForm(), "code_url": _code_path(subscriber)}
        )
    if Channel(subscriber.channel).uses_target:
        return render(request, "subscribe/check_channel.html")
    return render(
        request, "subscribe/check_inbox.html", {**(context or {}), "email": form.cleaned_data["email"]}
    )


# The subscribe page's sections, in order, each a template under templates/subscribe/. A channel
# with its own form adds a section here, with its form built in `_subscribe_page`; each form
# posts to its own URL.
SUBSCRIBE_SECTIONS = [
    {"id": "email", "label": gettext_lazy("Email"), "template": "subscribe/_email_section.html"},
    {"id": "webhook", "label": gettext_lazy("Webhook"), "template": "subscribe/_webhook_section.html"},
    {"id": "feeds", "label": gettext_lazy("Feeds"), "template": "subscribe/_feeds_section.html"},
]


def _subscribe_page(request, *, status: int = 200, **bound):
    """The subscribe page; `bound` replaces the empty form of the section that was posted
    (`form` is that form too, and `limited` a rate-limit message when there is one)."""
    # The chat sections (incidents/forms/chat_subscriptions.py) come after the webhook one.
    chats = chat_sections(language=current_language(), bound=bound)
    sections = [*SUBSCRIBE_SECTIONS[:2], *chats, *SUBSCRIBE_SECTIONS[2:]]
    initial = {"language": current_language()}
    # An empty form per section that has one, ids prefixed by the section: no duplicate ids.
    context = {
        "email_form": EmailSubscribeForm(initial=initial, auto_id="email-%s"),
        "webhook_form": WebhookSubscribeForm(initial=initial, auto_id="webhook-%s"),
        **bound,
        "sections": sections,
    }
    return render(request, "subscribe/form.html", context, status=status)


def _subscribe_with(request, form, *, form_name: str):
    limited = subscription_limits.client_refusal(client=client_address(request))
    if limited:
        # Empty forms: showing this one would validate it, resolving a webhook's host name.
        return _subscribe_page(request, status=429, limited=limited)
    if form.is_valid():
        limited, subscriber = _subscribe_from(form, request)
        if subscriber is not None:
            # The same answer whether or not the address is known: no enumeration.
            return _submitted_page(request, form, subscriber)
        if limited:
            return _subscribe_page(request, status=429, form=form, limited=limited, **{form_name: form})
    return _subscribe_page(request, status=400, form=form, **{form_name: form})


@require_http_methods(["GET", "POST"])
def subscribe(request):
    """The subscribe page; a POST is the email section's form."""
    if request.method == "GET":
        return _subscribe_page(request)
    form = EmailSubscribeForm(request.POST, auto_id="email-%s", initial={"language": current_language()})
    return _subscribe_with(request, form, form_name="email_form")


@require_http_methods(["GET", "POST"])
def subscribe_webhook(request):
    """The webhook section's form; a GET shows the page at that section."""
    if request.method == "GET":
        return redirect(f"{reverse('subscribe:form')}#webhook")
    form = WebhookSubscribeForm(request.POST, auto_id="webhook-%s")
    return _subscribe_with(request, form, form_name="webhook_form")


@require_http_methods(["GET", "POST"])
def subscribe_chat(request, channel: str):
    """A chat or SMS section's form; a GET shows the page at that section."""
    if channel not in chat_channels():
        raise Http404
    if request.method == "GET":
        return redirect(f"{reverse('subscribe:form')}#{channel}")
    form = ChatSubscribeForm(request.POST, auto_id=f"{channel}-%s", channel=channel)
    return _subscribe_with(request, form, form_name=f"{channel}_form")


@require_http_methods(["GET", "POST"])
def follow(request, slug: str):
    incident = get_object_or_404(Incident.objects.published(), slug=slug)
    form = FollowForm(request.POST or None, initial={"language": current_language()})
    context = {"form": form, "incident": incident}
    if request.method == "GET":
        return render(request, "subscribe/follow.html", context)
    limited = subscription_limits.client_refusal(client=client_address(request)) if incident.is_open else None
    if incident.is_open and not limited and form.is_valid():
        limited, subscriber = _subscribe_from(form, request, incident=incident)
        if subscriber is not None:
            return _submitted_page(request, form, subscriber, context)
    if limited:
        return render(request, "subscribe/follow.html", {**context, "limited": limited}, status=429)
    return render(request, "subscribe/follow.html", context, status=400)


@csrf_exempt  # a public, unauthenticated JSON endpoint: there is no session to protect
@require_POST
def api_subscribe(request):
    """POST {"email", "language", "components": [slugs], "endpoint_url"?, "incident"?: slug}, with
    "channel": "webhook" (endpoint_url required) or "slack", "teams", "apprise", "sms" (with
    "target"): what the subscribe page's sections take, as JSON."""
    limited = subscription_limits.client_refusal(client=client_address(request))
    if limited:
        response = JsonResponse({"errors": {"__all__": [limited]}}, status=429)
        response["Retry-After"] = str(subscription_limits.WINDOW_SECONDS)
        return response
    limit = settings.SUBSCRIBE_MAX_BODY_BYTES
    body = read_body_within(request, limit=limit)
    if body is None:
        return JsonResponse({"errors": {"body": [body_too_large(limit)]}}, status=413)
    try:
        payload = loads_bounded(body or b"{}")
    except JsonTooDeep as error:
        return JsonResponse({"errors": {"body": [str(error)]}}, status=400)
    except UnstorableText as error:
        return JsonResponse({"errors": {error.field: [str(error)]}}, status=400)
    except ValueError:
        return JsonResponse({"errors": {"__all__": [_("The body must be JSON.")]}}, status=400)
    if not isinstance(payload, dict):
        return JsonResponse({"errors": {"__all__": [_("The body must be a JSON object.")]}}, status=400)
    incident = None
    if payload.get("incident"):
        incident = Incident.objects.published().open().filter(slug=str(payload["incident"])).first()
        if incident is None:
            return JsonResponse({"errors": {"incident": [_("No open incident has this id.")]}}, status=400)
    form = _api_form(payload)
    if form is None:
        choices = ", ".join(["email", "webhook", *chat_channels()])
        return JsonResponse(
            {"errors": {"channel": [_("Choose one of: %(channels)s.") % {"channels": choices}]}}, status=400
        )
    if not form.is_valid():
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    limited, subscriber = _subscribe_from(form, request, incident=incident)
    if limited:
        return JsonResponse({"errors": {"__all__": [limited]}}, status=429)
    if subscriber is None:
        return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
    if subscriber.channel == Channel.SMS:
        answer = {
            "detail": _("A code is on its way to the number: POST it as “code” to code_url."),
            "code_url": settings.SITE_URL + _code_path(subscriber),
        }
    elif Channel(subscriber.channel).uses_target:
        answer = {"detail": _("A confirmation link is on its way to the channel itself.")}
    else:
        answer = {"detail": _("If the address can receive mail, a confirmation link is on its way.")}
    return JsonResponse(answer, status=202)


def _api_form(payload: dict):
    """The form for the JSON endpoint's channel (email, the default, also takes an optional
    webhook URL), bound to the payload; None for a channel the subscribe page does not offer."""
    data = {
        "email": payload.get("email", ""),
        "language": payload.get("language", settings.LANGUAGE_CODE),
        "components": payload.get("components", []),
    }
    channel = payload.get("channel", "email")
    if channel in ("email", "webhook"):
        form = SubscribeForm if channel == "email" else WebhookSubscribeForm
        return form({**data, "endpoint_url": payload.get("endpoint_url", "")})
    if channel not in chat_channels():
        return None
    return ChatSubscribeForm({**data, "target": payload.get("target", "")}, channel=channel)


def _invalid_link(request):
    return render(request, "subscribe/invalid_link.html", status=404)


@require_http_methods(["GET", "POST"])
def confirm(request, token: str):
    # GET only shows a button: mail scanners that open links must not confirm for the person.
    subscriber = links.subscriber_for_confirmation(token)
    if subscriber is None:
        return _invalid_link(request)
    if request.method == "POST":
        confirmation = subscriptions.confirm_by_link(subscriber)
        subscriber = confirmation.subscriber
        context = {
            "subscriber": subscriber,
            "manage_url": links.manage_url(subscriber),
            "webhook_secret": confirmation.webhook_secret,
        }
        return render(request, "subscribe/confirmed.html", context)
    return render(request, "subscribe/confirm.html", {"subscriber": subscriber})


@require_http_methods(["GET", "POST"])
def follow_from_mail(request, token: str):
    """The "Follow the incident" link of an update's mail: the GET shows a button (mail scanners
    open links), the POST follows it."""
    found = links.follow_for_link(token)
    if found is None:
        return _invalid_link(request)
    subscriber, incident = found
    context = {"subscriber": subscriber, "incident": incident}
    if request.method == "POST" and incident.is_open:
        follow = subscriptions.follow_from_mail(subscriber, incident=incident)
        context |= {"following": True, "manage_url": links.manage_url(follow)}
    status = 400 if request.method == "POST" and not incident.is_open else 200
    return render(request, "subscribe/follow_from_mail.html", context, status=status)


# The signed link and the code texted to the number are the proof; API clients POST the code too.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def sms_code(request, token: str):
    """The page where the code texted to a number is entered; the number hears nothing before."""
    subscriber = links.subscriber_for_code(token)
    if subscriber is None:
        return _invalid_link(request)
    form = SmsCodeForm(request.POST or None)
    context = {"form": form, "code_url": request.path}
    if request.method == "GET":
        return render(request, "subscribe/enter_code.html", context)
    limited = subscription_limits.code_attempt_refusal(subscriber_id=subscriber.public_id)
    if limited:
        return render(request, "subscribe/enter_code.html", {**context, "limited": limited}, status=429)
    if form.is_valid():
        confirmed = subscriptions.confirm_by_code(subscriber, code=form.cleaned_data["code"])
        if confirmed is not None:
            context = {"subscriber": confirmed, "manage_url": links.manage_url(confirmed)}
            return render(request, "subscribe/confirmed.html", context)
        form.add_error("code", _("This is not the code we sent. Check the text message and try again."))
    return render(request, "subscribe/enter_code.html", context, status=400)


@require_http_methods(["GET", "POST"])
def manage(request, token: str):
    subscriber = links.subscriber_for_management(token)
    if subscriber is None:
        return _invalid_link(request)
    initial = {"language": subscriber.language, "components": list(subscriber.components.all())}
    form = PreferencesForm(request.POST or None, initial=initial)
    saved = False
    if request.method == "POST" and subscriber.is_active and form.is_valid():
        subscriptions.update_preferences(
            subscriber, language=form.cleaned_data["language"], components=form.cleaned_data["components"]
        )
        saved = True
    context = {"subscriber": subscriber, "form": form, "saved": saved, "token": token}
    status = 400 if request.method == "POST" and not saved else 200
    return render(request, "subscribe/manage.html", context, status=status)


@csrf_exempt  # RFC 8058: mail clients POST without a CSRF token; the signed URL is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    subscriber = links.subscriber_for_management(token)
    if subscriber is None:
        return _invalid_link(request)
    if request.method == "GET":
        return render(request, "subscribe/unsubscribe.html", {"subscriber": subscriber, "token": token})
    subscriptions.unsubscribe(subscriber)
    if request.POST.get("List-Unsubscribe") == "One-Click":
        # RFC 8058 one-click: a 2xx and no page to click through. Repeating it is harmless.
        return HttpResponse(_("You are unsubscribed."), content_type="text/plain; charset=utf-8")
    return render(request, "subscribe/unsubscribed.html", {"subscriber": subscriber})


def webhooks(request):
    """How receivers verify our webhooks (linked from every payload's meta.documentation)."""
    return render(request, "subscribe/webhooks.html")
