"""API tokens in the editor: your own (admins see everyone's), issued with the secret shown once.

Who may do what follows the API (/api/v1/tokens/): every staff role may issue and revoke its own
tokens; nobody revokes another person's token there, so nobody does here either.
"""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.api_tokens import ApiTokenForm
from incidents.forms.base import apply_errors
from incidents.models import ApiToken
from incidents.roles import can_administer
from incidents.services.api_tokens import issue_token, revoke_token

from .access import viewer_required


def _list_page(request, form: ApiTokenForm):
    tokens = ApiToken.objects.select_related("user")
    if not can_administer(request.user):
        tokens = tokens.filter(user=request.user)
    return render(request, "editor/api_tokens.html", {"tokens": tokens, "form": form})


@viewer_required
def token_list(request):
    return _list_page(request, ApiTokenForm())


@viewer_required
def token_new(request):
    if request.method != "POST":
        return redirect("editor:api-tokens")
    form = ApiTokenForm(request.POST)
    if form.is_valid():
        try:
            token, secret = issue_token(
                request.user,
                name=form.cleaned_data["name"],
                scope=form.cleaned_data["scope"],
                expires_at=form.expires_at,
                actor=request.user,
            )
        except ValidationError as error:
            apply_errors(form, error, renamed={"expires_at": "expires_on"})
        else:
            # The secret is in this answer only: never in messages, the session or a later page.
            return render(request, "editor/api_token_issued.html", {"token": token, "secret": secret})
    return _list_page(request, form)


@require_POST
@viewer_required
def token_revoke(request, pk: int):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    revoke_token(token, actor=request.user)
    messages.success(request, _("Token “%(name)s” revoked: it no longer works.") % {"name": token.name})
    return redirect("editor:api-tokens")
