"""Endpoints monitored systems call (webhook receiver, push): JSON, 4xx refusals storing nothing."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from incidents.models import Probe, ProbeKind
from incidents.probes.push import BadPush
from incidents.probes.webhook import SIGNATURE_HEADER
from incidents.services.probe_results import CanaryRefused, push_samples, receive_canary
from incidents.validation.request_bodies import body_too_large, read_body_within


def _refuse(status: int, message: str, *, field: str | None = None) -> JsonResponse:
    answer = {"error": str(message)}
    if field:
        answer["field"] = field
    return JsonResponse(answer, status=status)


@csrf_exempt
@require_POST
def webhook_receiver(request, public_id: str):
    received_at = timezone.now()
    probe = get_object_or_404(Probe, public_id=public_id, kind=ProbeKind.WEBHOOK)
    body = read_body_within(request, limit=settings.PUSH_MAX_BODY_BYTES)
    if body is None:
        return _refuse(413, body_too_large(settings.PUSH_MAX_BODY_BYTES), field="body")
    try:
        run = receive_canary(
            probe, body=body, signature=request.headers.get(SIGNATURE_HEADER, ""), received_at=received_at
        )
    except CanaryRefused as refused:
        return _refuse(refused.status, str(refused), field=refused.field)
    return JsonResponse({"run": run.pk, "state": run.state, "value": run.value})


@csrf_exempt
@require_POST
def push_endpoint(request, public_id: str):
    probe = get_object_or_404(
        Probe.objects.select_related("metric"), public_id=public_id, kind=ProbeKind.PUSH
    )
    authorization = request.headers.get("Authorization", "")
    if not authorization.startswith("Bearer "):
        return _refuse(401, _("Send the probe's token as: Authorization: Bearer <token>."))
    if not probe.enabled or not probe.push_token_matches(authorization.removeprefix("Bearer ").strip()):
        return _refuse(403, _("This token is not valid for this probe."))
    body = read_body_within(request, limit=settings.PUSH_MAX_BODY_BYTES)
    if body is None:
        return _refuse(413, body_too_large(settings.PUSH_MAX_BODY_BYTES), field="body")
    try:
        stored = push_samples(probe, body=body)
    except BadPush as bad:
        return _refuse(400, str(bad), field=bad.field)
    except ValidationError as invalid:
        fields = getattr(invalid, "error_dict", {})
        return _refuse(400, " ".join(invalid.messages), field=next(iter(fields), None))
    return JsonResponse({"stored": stored}, status=202)
