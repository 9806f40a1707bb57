"""Forms for subscribing and managing a subscription; the JSON API validates with them too."""

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from incidents.models import Component
from incidents.outbound.guard import check_url
from incidents.selectors.public import PAGE_ORDER
from incidents.services.subscriptions import check_email, check_no_line_breaks

from .component_groups import components_by_group, shown_name


class GroupedComponents(ModelChoiceIterator):
    """The components under their groups' names, as the overview shows them; a flat list when
    they are all in one group (or none)."""

    def __iter__(self):
        for name, members in components_by_group(self.queryset):
            choices = [self.choice(component) for component in members]
            if name:
                yield name, choices
            else:
                yield from choices


class GroupedCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes with each group in a fieldset named by its legend (templates/forms/)."""

    template_name = "forms/grouped_checkboxes.html"


class ComponentChoiceField(forms.ModelMultipleChoiceField):
    iterator = GroupedComponents
    widget = GroupedCheckboxes

    def label_from_instance(self, obj):
        # Labels are made while the page renders, in the page's language.
        return shown_name(obj.name, obj) or obj.slug


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    components = ComponentChoiceField(
        label=_("Components"),
        queryset=Component.objects.select_related("group").order_by(*PAGE_ORDER),
        to_field_name="slug",
        required=False,
        help_text=_("Choose none to hear about every component."),
    )


class AddressField(forms.CharField):
    """An email address as browsers and password managers know one."""

    widget = forms.EmailInput(attrs={"autocomplete": "email", "spellcheck": "false"})

    def __init__(self, label):
        # strip=False: a trailing line break must be reported, not quietly removed.
        super().__init__(label=label, max_length=254, strip=False)

    def clean(self, value) -> str:
        value = super().clean(value)
        check_no_line_breaks(value)
        value = value.strip()
        check_email(value)
        return value


class EndpointField(forms.CharField):
    """A webhook URL, one the outbound guard lets us post to."""

    def __init__(self, **kwargs):
        help_text = _("We POST each update as JSON in Statuspage's format, signed with a secret.")
        super().__init__(max_length=2000, strip=False, help_text=help_text, **kwargs)

    def clean(self, value) -> str:
        value = super().clean(value)
        if not value:
            return value
        check_no_line_breaks(value)
        value = value.strip()
        try:
            forms.URLField().clean(value)
            check_url(value)
        except ValidationError as error:
            raise ValidationError(error.messages) from None
        return value


class EmailSubscribeForm(PreferencesForm):
    """The subscribe page's email section."""

    email = AddressField(_("Email address"))

    field_order = ["email", "language", "components"]


class SubscribeForm(EmailSubscribeForm):
    """The JSON endpoint's email channel, which also takes an optional webhook URL."""

    endpoint_url = EndpointField(label=_("Webhook URL (optional)"), required=False)


class WebhookSubscribeForm(SubscribeForm):
    """The subscribe page's webhook section: the address receives the confirmation link."""

    endpoint_url = EndpointField(
        label=_("Webhook URL"),
        # Text with a URL keyboard rather than type=url: a refused value is shown again as typed,
        # and an input of type url may not hold one that is not a URL (HTML's content model).
        # autocomplete "url" would offer the visitor's own home page, never an endpoint.
        widget=forms.TextInput(attrs={"inputmode": "url", "autocomplete": "off", "placeholder": "https://"}),
    )
    email = AddressField(_("Email address for the confirmation link"))

    field_order = ["endpoint_url", "email", "language", "components"]


class FollowForm(forms.Form):
    email = AddressField(_("Email address"))
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
