"""Forms of the on-call editor. They validate input and keep what was typed; services do the writes."""

import datetime as dt
import json
import re

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from incidents.formatting import status_zone
from incidents.models import (
    SECTIONS,
    ActionItemState,
    Aggregation,
    Component,
    ComponentGroup,
    ComponentStatus,
    DuePrecision,
    Impact,
    IncidentKind,
    IncidentStatus,
    Metric,
    MetricKind,
    ProbeKind,
    StatusMode,
    Subject,
    Unit,
    UpdateTemplate,
)
from incidents.models.api_tokens import ApiToken, TokenScope
from incidents.models.incidents import STATUSES_BY_KIND
from incidents.models.postmortems import validate_due
from incidents.roles import Role
from incidents.translation import language_codes, pick
from incidents.validation.instants import check_any, check_happened, check_planned

TITLE_MAX = 200
UPDATE_TEXT_MAX = 20_000
SECTION_TEXT_MAX = 100_000

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def language_choices():
    return list(settings.LANGUAGES)


def default_language() -> str:
    code = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return code if code in language_codes() else settings.LANGUAGE_CODE


def component_label(component: Component) -> str:
    return pick(component.name, language=default_language()).text or component.slug


class ComponentStatusesMixin:
    """Adds `affected` (which components) and one status select per component.

    Built from the components that exist, so an unknown component is refused by the choice field.
    """

    default_component_status = ComponentStatus.PARTIAL_OUTAGE

    def add_component_fields(self, components, *, affected=(), with_status=True):
        self.components = list(components)
        self.fields["affected"] = forms.MultipleChoiceField(
            label=_("Affected components"),
            choices=[(c.slug, component_label(c)) for c in self.components],
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=[c.slug for c in affected],
        )
        self.with_status = with_status
        if with_status:
            for component in self.components:
                self.fields[f"status_{component.slug}"] = forms.ChoiceField(
                    label=_("Status of %(component)s") % {"component": component_label(component)},
                    choices=ComponentStatus.choices,
                    initial=component.status if component in affected else self.default_component_status,
                    required=False,
                )

    def component_rows(self):
        """(checkbox, status select) pairs for the template."""
        boxes = {box.data["value"]: box for box in self["affected"]}
        for component in self.components:
            status = self[f"status_{component.slug}"] if self.with_status else None
            yield component, boxes[component.slug], status

    # An update form shows every affected component with its current status; leaving one as
    # it is must not record a "partial outage → partial outage" change on the timeline.
    only_changed_statuses = False

    def component_statuses(self) -> dict[Component, str]:
        by_slug = {c.slug: c for c in self.components}
        chosen = {}
        for slug in self.cleaned_data.get("affected", []):
            status = self.cleaned_data.get(f"status_{slug}") or self.default_component_status
            if self.only_changed_statuses and status == by_slug[slug].status:
                continue
            chosen[by_slug[slug]] = status
        return chosen

    def affected_components(self) -> list[Component]:
        by_slug = {c.slug: c for c in self.components}
        return [by_slug[slug] for slug in self.cleaned_data.get("affected", [])]


class DeclareForm(ComponentStatusesMixin, forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX)
    impact = forms.ChoiceField(label=_("Impact"), choices=Impact.choices, initial=Impact.MINOR)
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("First update"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )
    publish = forms.BooleanField(
        label=_("Publish now"),
        required=False,
        initial=True,
        help_text=_("Leave unchecked to keep a draft only staff can see."),
    )

    def __init__(self, *args, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = default_language()
        self.add_component_fields(components)


class MaintenanceForm(ComponentStatusesMixin, forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX)
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("Announcement"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )
    scheduled_for = forms.DateTimeField(label=_("Starts"), widget=DATETIME_WIDGET, validators=[check_planned])
    scheduled_until = forms.DateTimeField(label=_("Ends"), widget=DATETIME_WIDGET, validators=[check_planned])
    publish = forms.BooleanField(label=_("Publish now"), required=False, initial=True)

    def __init__(self, *args, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = default_language()
        self.add_component_fields(components, with_status=False)
        for name in ("scheduled_for", "scheduled_until"):
            self.fields[name].help_text = _("Time zone: %(zone)s.") % {"zone": settings.STATUS_TIME_ZONE}

    def clean(self):
        data = super().clean()
        start, end = data.get("scheduled_for"), data.get("scheduled_until")
        if start and end and end <= start:
            self.add_error("scheduled_until", _("The window must end after it starts."))
        if not data.get("affected"):
            self.add_error("affected", _("Choose at least one component."))
        return data


class UpdateForm(ComponentStatusesMixin, forms.Form):
    only_changed_statuses = True
    status = forms.ChoiceField(label=_("Status"))
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("Message"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )
    display_at = forms.DateTimeField(
        label=_("Shown time"),
        required=False,
        widget=DATETIME_WIDGET,
        validators=[check_happened],
        help_text=_("Leave empty for now; an earlier time is shown as backdated."),
    )

    def __init__(self, *args, incident, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [(s.value, s.label) for s in incident.allowed_statuses()]
        self.fields["status"].initial = incident.status
        self.fields["display_at"].help_text = _(
            "Leave empty for now; an earlier time is shown as backdated. Time zone: %(zone)s."
        ) % {"zone": settings.STATUS_TIME_ZONE}
        self.fields["language"].initial = incident.original_language
        self.add_component_fields(components, affected=list(incident.components.all()))


class ClosingForm(forms.Form):
    """Resolve or reopen: a message and the incident version the responder saw."""

    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("Message"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )
    version = forms.IntegerField(widget=forms.HiddenInput)


class IncidentEditForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX)
    impact = forms.ChoiceField(label=_("Impact"), choices=Impact.choices)
    version = forms.IntegerField(widget=forms.HiddenInput)


class UpdateEditForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=UPDATE_TEXT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)


class UpdateTemplateForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = UpdateTemplate
        fields = ["name", "language", "kind", "status", "body"]
        labels = {
            "name": _("Name"),
            "language": _("Language"),
            "kind": _("For"),
            "status": _("Suggested status"),
            "body": _("Text"),
        }
        widgets = {"body": forms.Textarea}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].widget = forms.Select(choices=language_choices())
        self.fields["body"].max_length = UPDATE_TEXT_MAX
        self.fields["body"].validators.append(MaxLengthValidator(UPDATE_TEXT_MAX))
        if self.instance.pk:
            self.fields["version"].initial = self.instance.version

    def clean_language(self):
        code = self.cleaned_data["language"]
        if code not in language_codes():
            raise ValidationError(_("Choose one of the site's languages."))
        return code

    def clean(self):
        data = super().clean()
        kind, status = data.get("kind"), data.get("status")
        if kind and status and IncidentStatus(status) not in STATUSES_BY_KIND[IncidentKind(kind)]:
            self.add_error("status", _("This status does not belong to this kind of event."))
        return data


class PostmortemForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, label in SECTIONS:
            self.fields[key] = forms.CharField(
                label=label,
                required=False,
                max_length=SECTION_TEXT_MAX,
                widget=forms.Textarea(attrs={"rows": 6, "data-markdown": "1"}),
            )

    def sections(self) -> dict[str, str]:
        return {key: self.cleaned_data.get(key, "") for key, _label in SECTIONS}

    def section_fields(self):
        return [self[key] for key, _label in SECTIONS]


# "Q1 2027", "2027-03" and "2027" stand for a quarter, a month and a year.
DUE_SHORTHANDS = (
    (re.compile(r"^[Qq]([1-4])\s*[-/ ]?\s*(\d{4})$"), DuePrecision.QUARTER),
    (re.compile(r"^(\d{4})\s*[-/ ]?\s*[Qq]([1-4])$"), DuePrecision.QUARTER),
    (re.compile(r"^(\d{4})-(\d{1,2})$"), DuePrecision.MONTH),
    (re.compile(r"^(\d{4})$"), DuePrecision.YEAR),
)


def parse_due(text: str) -> tuple[dt.date, DuePrecision | None]:
    """A typed due date and the precision its shape implies (None for a full date)."""
    text = text.strip()
    try:
        return dt.date.fromisoformat(text), None
    except ValueError:
        pass
    for pattern, precision in DUE_SHORTHANDS:
        match = pattern.match(text)
        if not match:
            continue
        try:
            if precision == DuePrecision.QUARTER:
                first, second = match.groups()
                quarter, year = (first, second) if len(first) == 1 else (second, first)
                return dt.date(int(year), 3 * int(quarter) - 2, 1), precision
            if precision == DuePrecision.MONTH:
                return dt.date(int(match[1]), int(match[2]), 1), precision
            return dt.date(int(match[1]), 1, 1), precision
        except ValueError:
            break
    raise ValidationError(
        _("Enter a date (2026-12-15), a month (2026-12), a quarter (Q1 2027) or a year (2027).")
    )


def staff_users():
    return get_user_model().objects.filter(is_active=True, is_staff=True).order_by("username")


class OwnerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.get_full_name() or obj.get_username()


class ActionItemForm(forms.Form):
    title = forms.CharField(label=_("Action item"), max_length=TITLE_MAX)
    owner = OwnerChoiceField(
        label=_("Owner"), queryset=staff_users(), required=False, empty_label=_("— no account —")
    )
    owner_name = forms.CharField(label=_("or owner without an account"), max_length=200, required=False)
    due = forms.CharField(
        label=_("Due"),
        max_length=20,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "2026-12-15 · 2026-12 · Q1 2027 · 2027"}),
    )
    due_precision = forms.ChoiceField(
        label=_("Due precision"), choices=DuePrecision.choices, initial=DuePrecision.DAY
    )
    state = forms.ChoiceField(label=_("State"), choices=ActionItemState.choices, initial=ActionItemState.OPEN)
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner"].queryset = staff_users()

    def clean(self):
        data = super().clean()
        if data.get("owner") and data.get("owner_name", "").strip():
            self.add_error("owner_name", _("Choose a user or type a name, not both."))
        data["due_date"] = None
        text = data.get("due", "").strip()
        if text and "due_precision" in data:
            try:
                due, implied = parse_due(text)
            except ValidationError as error:
                self.add_error("due", error)
                return data
            precision = DuePrecision(data["due_precision"])
            if implied and precision == DuePrecision.DAY:
                precision = implied  # "Q1 2027" with the default precision means the quarter
            elif implied and implied != precision:
                self.add_error(
                    "due",
                    _("“%(text)s” is a %(implied)s, but the precision says %(precision)s.")
                    % {"text": text, "implied": implied.label.lower(), "precision": precision.label.lower()},
                )
                return data
            try:
                validate_due(due, precision)
            except ValidationError as error:
                self.add_error("due", error.message_dict["due_date"])
                return data
            try:
                check_planned(due)
            except ValidationError as error:
                self.add_error("due", error)
                return data
            data["due_date"], data["due_precision"] = due, precision
        return data


def initial_for_item(item, language: str) -> dict:
    due = ""
    if item.due_date:
        due = {
            DuePrecision.QUARTER: f"Q{(item.due_date.month - 1) // 3 + 1} {item.due_date.year}",
            DuePrecision.MONTH: f"{item.due_date:%Y-%m}",
            DuePrecision.YEAR: f"{item.due_date:%Y}",
        }.get(item.due_precision, item.due_date.isoformat())
    return {
        "title": item.title.get(language) or pick(item.title, language=language).text,
        "owner": item.owner_id,
        "owner_name": item.owner_name,
        "due": due,
        "due_precision": item.due_precision,
        "state": item.state,
        "is_public": item.is_public,
    }


def add_translated_fields(form: forms.Form, name: str, label, *, required_language: str = "en", widget=None):
    for code, language_name in settings.LANGUAGES:
        form.fields[f"{name}_{code}"] = forms.CharField(
            label=f"{label} ({language_name})",
            max_length=TITLE_MAX if widget is None else 5000,
            required=code == required_language,
            widget=widget,
        )


def translated_value(form: forms.Form, name: str) -> dict[str, str]:
    return {
        code: form.cleaned_data[f"{name}_{code}"].strip()
        for code in language_codes()
        if form.cleaned_data.get(f"{name}_{code}", "").strip()
    }


def translated_initial(name: str, texts: dict[str, str]) -> dict[str, str]:
    return {f"{name}_{code}": text for code, text in (texts or {}).items()}


class ComponentForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    group = forms.ModelChoiceField(label=_("Group"), queryset=ComponentGroup.objects.all(), required=False)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)
    status_mode = forms.ChoiceField(label=_("Status"), choices=StatusMode.choices)
    showcase = forms.BooleanField(label=_("Show uptime bars"), required=False, initial=True)
    only_show_if_degraded = forms.BooleanField(label=_("Only show when degraded"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_translated_fields(self, "name", _("Name"))
        add_translated_fields(
            self,
            "description",
            _("Description"),
            required_language="",
            widget=forms.Textarea(attrs={"rows": 2}),
        )


class MetricForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    kind = forms.ChoiceField(label=_("Kind"), choices=MetricKind.choices)
    unit = forms.ChoiceField(label=_("Unit"))
    precision = forms.IntegerField(label=_("Decimals shown"), min_value=0, max_value=6, initial=0)
    aggregation = forms.ChoiceField(label=_("Aggregation"))
    window = forms.IntegerField(label=_("Samples evaluated"), min_value=1, max_value=1000, initial=5)
    expected_interval = forms.IntegerField(
        label=_("Seconds between samples"), min_value=1, max_value=86400, initial=60
    )
    higher_is_worse = forms.BooleanField(label=_("Higher is worse"), required=False, initial=True)
    degraded_threshold = forms.FloatField(label=_("Degraded from"), required=False)
    partial_outage_threshold = forms.FloatField(label=_("Partial outage from"), required=False)
    major_outage_threshold = forms.FloatField(label=_("Major outage from"), required=False)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = Unit.choices
        self.fields["aggregation"].choices = Aggregation.choices
        add_translated_fields(self, "name", _("Name"))


class AuditFilterForm(forms.Form):
    subject_type = forms.ChoiceField(label=_("Object type"), required=False)
    subject_id = forms.CharField(label=_("Object id"), max_length=64, required=False)
    actor = forms.CharField(label=_("User"), max_length=150, required=False)
    since = forms.DateTimeField(
        label=_("From"), required=False, widget=DATETIME_WIDGET, validators=[check_any]
    )
    until = forms.DateTimeField(label=_("To"), required=False, widget=DATETIME_WIDGET, validators=[check_any])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["subject_type"].choices = [
            ("", _("Any")),
            *Subject.choices,
            ("update_template", _("Update template")),
        ]


class GroupForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_translated_fields(self, "name", _("Name"))
        add_translated_fields(
            self,
            "description",
            _("Description"),
            required_language="",
            widget=forms.Textarea(attrs={"rows": 2}),
        )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [("", _("No role")), *Role.choices]


# --- follow-up: probe screens in the editor ---
PROBE_CONFIG_MAX_CHARS = 16_384


class ProbeForm(forms.Form):
    """A probe as typed in the editor; the kind's module and `validate_probe` do the real checks."""

    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(label=_("Kind"), choices=ProbeKind.choices)
    metric = forms.ModelChoiceField(label=_("Metric"), queryset=Metric.objects.none())
    enabled = forms.BooleanField(label=_("Enabled"), required=False, initial=True)
    url = forms.CharField(
        label=_("URL"),
        max_length=500,
        required=False,
        help_text=_("What the probe calls (empty for push probes)."),
    )
    config = forms.CharField(
        label=_("Settings (JSON)"),
        required=False,
        initial="{}",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_("Settings of this kind of probe, as a JSON object (see the probes documentation)."),
    )
    interval = forms.IntegerField(label=_("Seconds between runs"), initial=60)
    connect_timeout = forms.FloatField(label=_("Connect timeout (s)"), initial=3.0)
    read_timeout = forms.FloatField(label=_("Read timeout (s)"), initial=5.0)
    timeout = forms.FloatField(label=_("Whole-run timeout (s)"), initial=5.0)

    def __init__(self, *args, probe=None, **kwargs):
        super().__init__(*args, **kwargs)
        # A metric is fed by one probe: offer the metrics without one (and this probe's own).
        metrics = Metric.objects.select_related("component").filter(probe__isnull=True)
        if probe is not None and probe.pk:
            metrics = Metric.objects.select_related("component").filter(
                models.Q(probe__isnull=True) | models.Q(probe=probe)
            )
        self.fields["metric"].queryset = metrics.order_by("component__position", "position", "pk")
        self.fields["metric"].label_from_instance = metric_label

    def clean_config(self):
        text = (self.cleaned_data.get("config") or "").strip() or "{}"
        if len(text) > PROBE_CONFIG_MAX_CHARS:
            raise ValidationError(
                _("The settings are too long (at most %(limit)s characters)."),
                params={"limit": PROBE_CONFIG_MAX_CHARS},
            )
        try:
            config = json.loads(text, parse_constant=_refuse_json_constant)
        except ValueError:
            raise ValidationError(_("The settings must be valid JSON.")) from None
        if not isinstance(config, dict):
            raise ValidationError(_("The settings must be a JSON object."))
        return config


def metric_label(metric: Metric) -> str:
    name = pick(metric.name, language=default_language()).text or metric.slug
    return f"{component_label(metric.component)} — {name}"


def _refuse_json_constant(name: str):
    raise ValueError(name)


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
