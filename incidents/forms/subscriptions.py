"""Forms for subscribing and managing a subscription; the JSON API validates with them too."""

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.models import Component
from incidents.outbound.guard import check_url
from incidents.services.subscriptions import check_email, check_no_line_breaks


def clean_address(value: str) -> str:
    check_no_line_breaks(value)
    value = value.strip()
    check_email(value)
    return value


class ComponentChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return str(obj)


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    components = ComponentChoiceField(
        label=_("Components"),
        queryset=Component.objects.select_related("group"),
        to_field_name="slug",
        required=False,
        help_text=_("Choose none to hear about every component."),
        widget=forms.CheckboxSelectMultiple,
    )


class SubscribeForm(PreferencesForm):
    # strip=False: a trailing line break must be reported, not quietly removed.
    email = forms.CharField(label=_("Email address"), max_length=254, strip=False)
    endpoint_url = forms.CharField(
        label=_("Webhook URL (optional)"),
        max_length=2000,
        required=False,
        strip=False,
        help_text=_("We POST each update as JSON in Statuspage's format, signed with a secret."),
    )

    field_order = ["email", "endpoint_url", "language", "components"]

    def clean_email(self):
        return clean_address(self.cleaned_data["email"])

    def clean_endpoint_url(self):
        value = self.cleaned_data["endpoint_url"]
        if not value:
            return ""
        check_no_line_breaks(value)
        value = value.strip()
        try:
            forms.URLField().clean(value)
            check_url(value)
        except ValidationError as error:
            raise ValidationError(error.messages) from None
        return value


class FollowForm(forms.Form):
    email = forms.CharField(label=_("Email address"), max_length=254, strip=False)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    def clean_email(self):
        return clean_address(self.cleaned_data["email"])
