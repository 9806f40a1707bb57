"""Issuing an API token in the editor."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.formatting import status_zone
from incidents.models.api_tokens import ApiToken, TokenScope
from incidents.validation.instants import check_planned


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=ApiToken._meta.get_field("name").max_length)
    scope = forms.ChoiceField(label=_("Scope"), choices=TokenScope.choices, initial=TokenScope.READ)
    expires_on = forms.DateField(
        label=_("Expires on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_(
            "The token stops working when this day begins in the status page's time zone; empty: never."
        ),
    )

    def clean_expires_on(self) -> dt.date | None:
        day = self.cleaned_data.get("expires_on")
        if day is None:
            return None
        now = timezone.now()
        if day <= now.astimezone(status_zone()).date():
            raise ValidationError(_("Choose a day after today."))
        check_planned(day, now=now)
        return day

    @property
    def expires_at(self) -> dt.datetime | None:
        """The instant the chosen day begins in the status page's zone."""
        day = self.cleaned_data.get("expires_on")
        return dt.datetime.combine(day, dt.time.min, tzinfo=status_zone()) if day else None
