"""Forms for incidents, maintenance windows, their updates and update templates."""

import re

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.lifecycle.commands import (
    DeclareIncident,
    EditIncident,
    EditUpdate,
    EnterRecord,
    PostUpdate,
    ReopenIncident,
    ResolveIncident,
    ScheduleMaintenance,
    command_from,
)
from incidents.lifecycle.edits import MOVE_REASON_MAX
from incidents.lifecycle.proposals import default_update_text, proposed_impact
from incidents.models import (
    Component,
    ComponentStatus,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
)
from incidents.models.incidents import STATUSES_BY_KIND
from incidents.translation import current_language
from incidents.validation.instants import check_happened, check_planned
from incidents.validation.texts import check_title
from incidents.validation.time_zones import time_zone_names

from .base import (
    DATETIME_WIDGET,
    TITLE_MAX,
    UPDATE_TEXT_MAX,
    component_label,
    language_choices,
)
from .component_groups import components_by_group


class ComponentStatusesMixin:
    """Adds `affected` (which components) and one status select per component, built from the
    components that exist, so an unknown component is refused by the choice field."""

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

    def component_sections(self) -> dict:
        """The (component, checkbox, status select) rows under their groups' names, in two parts: the
        groups of the components marked affected, shown at once, and the groups of all the others,
        folded away until the responder asks for them."""
        boxes = {box.data["value"]: box for box in self["affected"]}
        chosen = set(self["affected"].value() or [])
        affected, others = [], []
        for name, members in components_by_group(self.components):
            rows = [
                (c, boxes[c.slug], self[f"status_{c.slug}"] if self.with_status else None) for c in members
            ]
            mine = [row for row in rows if row[0].slug in chosen]
            rest = [row for row in rows if row[0].slug not in chosen]
            if mine:
                affected.append((name, mine))
            if rest:
                others.append((name, rest))
        return {
            "affected": affected,
            "others": others,
            "others_count": sum(len(rows) for _, rows in others),
        }

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


def time_zone_field() -> forms.ChoiceField:
    """The zone an incident's times are shown in; the first choice (empty) is the page's."""
    page_zone = _("The status page's (%(zone)s)") % {"zone": settings.STATUS_TIME_ZONE}
    return forms.ChoiceField(
        label=_("Time zone"),
        choices=[("", page_zone), *((name, name) for name in time_zone_names())],
        required=False,
        help_text=_("Its page, feeds and mails show its times in this zone."),
    )


PROPOSED = "proposed"


def message_field() -> forms.CharField:
    """An update's Markdown text, as the declare and update forms both take it."""
    return forms.CharField(
        label=_("Message"),
        max_length=UPDATE_TEXT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "data-markdown": "1"}),
        help_text=_(
            "Markdown: **bold**, _italic_, [a link](https://example.com), lists with “- ”. "
            "Leave it empty to post the default message for the status."
        ),
    )


def happened_field(label, help_text) -> forms.DateTimeField:
    """A past instant, optional, in the status page's time zone (said under the field)."""
    zone = _("Time zone: %(zone)s.") % {"zone": settings.STATUS_TIME_ZONE}
    return forms.DateTimeField(
        label=label,
        required=False,
        widget=DATETIME_WIDGET,
        validators=[check_happened],
        help_text=f"{help_text} {zone}",
    )


class DeclareForm(ComponentStatusesMixin, forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX, validators=[check_title])
    status = forms.ChoiceField(
        label=_("Status"),
        choices=[(s.value, s.label) for s in STATUSES_BY_KIND[IncidentKind.INCIDENT]],
        initial=IncidentStatus.INVESTIGATING,
        required=False,
    )
    impact = forms.ChoiceField(
        label=_("Impact"),
        choices=[(PROPOSED, _("Proposed from the components")), *Impact.choices],
        initial=PROPOSED,
        help_text=_("Proposed from the worst status of the affected components; choose one to override."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = message_field()
    deliver_notifications = forms.BooleanField(
        label=_("Notify subscribers"),
        required=False,
        initial=True,
        help_text=_("Unchecked, the incident is published without a mail, webhook or chat message."),
    )
    publish = forms.BooleanField(
        label=_("Publish now"),
        required=False,
        initial=True,
        help_text=_("Leave unchecked to keep a draft only staff can see."),
    )
    backfilled = forms.BooleanField(
        label=_("Record of the past (no notifications, current status unchanged)"),
        required=False,
        help_text=_("Its component statuses count on its own days in the uptime and day bars."),
    )

    def __init__(self, *args, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = current_language()
        self.fields["started_at"] = happened_field(_("Started"), _("Leave empty for now."))
        self.fields["display_time_zone"] = time_zone_field()
        self.add_component_fields(components)
        # Declaring starts with the title: the cursor is there when the screen opens.
        self.fields["title"].widget.attrs["autofocus"] = True
        language = self.initial.get("language") or current_language()
        status = self.initial.get("status") or IncidentStatus.INVESTIGATING
        self.fields["body"].widget.attrs["placeholder"] = default_update_text(status, language=language)

    def clean(self):
        data = super().clean()
        if data.get("impact") == PROPOSED:
            data["impact"] = proposed_impact(self.component_statuses().values())
        status = data.get("status") or IncidentStatus.INVESTIGATING
        language = data.get("language")
        # A record of the past may start without a message: it tells no one anything now.
        if language and not data.get("body", "").strip() and not data.get("backfilled"):
            data["body"] = default_update_text(status, language=language)
        return data

    def command(self) -> DeclareIncident | EnterRecord:
        data = self.cleaned_data
        given = {"status": data["status"] or None, "component_statuses": self.component_statuses()}
        if data["backfilled"]:
            return command_from(EnterRecord, data, **given)
        return command_from(DeclareIncident, data, notify=data["deliver_notifications"], **given)


class MaintenanceForm(ComponentStatusesMixin, forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX, validators=[check_title])
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("Announcement"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )
    scheduled_for = forms.DateTimeField(label=_("Starts"), widget=DATETIME_WIDGET, validators=[check_planned])
    scheduled_until = forms.DateTimeField(label=_("Ends"), widget=DATETIME_WIDGET, validators=[check_planned])
    publish = forms.BooleanField(label=_("Publish now"), required=False, initial=True)

    def __init__(self, *args, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = current_language()
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

    def command(self) -> ScheduleMaintenance:
        affected = dict.fromkeys(self.component_statuses(), ComponentStatus.UNDER_MAINTENANCE)
        return command_from(ScheduleMaintenance, self.cleaned_data, component_statuses=affected)


class UpdateForm(ComponentStatusesMixin, forms.Form):
    only_changed_statuses = True
    status = forms.ChoiceField(label=_("Status"), required=False)
    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = message_field()
    deliver_notifications = forms.BooleanField(label=_("Notify subscribers"), required=False, initial=True)

    def __init__(self, *args, incident, components, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [
            *((s.value, s.label) for s in incident.allowed_statuses()),
            ("", _("Note (no status change)")),
        ]
        self.fields["status"].initial = incident.status
        self.fields["display_at"] = happened_field(
            _("Shown time"), _("Leave empty for now; an earlier time is shown as backdated.")
        )
        self.fields["language"].initial = incident.original_language
        self.add_component_fields(components, affected=list(incident.components.all()))
        language = self.initial.get("language") or incident.original_language
        status = self.initial.get("status") or incident.status
        self.fields["body"].widget.attrs["placeholder"] = default_update_text(status, language=language)
        if incident.backfilled:
            notify = self.fields["deliver_notifications"]
            notify.initial, notify.disabled = False, True
            notify.help_text = _("A record of the past notifies nobody.")

    def clean(self):
        data = super().clean()
        if not data.get("status"):
            data["deliver_notifications"] = False  # a note is context, not news
            if not data.get("body", "").strip() and "body" not in self.errors:
                self.add_error("body", _("A note needs a text."))
        elif data.get("language") and not data.get("body", "").strip():
            data["body"] = default_update_text(data["status"], language=data["language"])
        return data

    def command(self) -> PostUpdate:
        data = self.cleaned_data
        return command_from(
            PostUpdate,
            data,
            body={data["language"]: data["body"]},
            component_statuses=self.component_statuses(),
            notify=data["deliver_notifications"],
        )


class ClosingForm(forms.Form):
    """Resolve or reopen: a message and the incident version the responder saw."""

    language = forms.ChoiceField(label=_("Language"), choices=language_choices)
    body = forms.CharField(
        label=_("Message"), max_length=UPDATE_TEXT_MAX, widget=forms.Textarea(attrs={"rows": 3})
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, incident: Incident, **kwargs):
        super().__init__(*args, **kwargs)
        self.incident = incident

    prefix = "reopen"  # both forms are on the incident screen
    action_label, done_message = _("Reopen"), _("Reopened.")
    command_class: type[ReopenIncident | ResolveIncident] = ReopenIncident

    def command(self) -> ReopenIncident | ResolveIncident:
        data = self.cleaned_data
        body = {data["language"]: data["body"]}
        return command_from(self.command_class, data, body=body, expected_version=data["version"])


class ResolveForm(ClosingForm):
    """Resolving takes the default message of "Resolved" (or "Completed") when none is typed, as
    the update form does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        closing = IncidentStatus.COMPLETED if self.incident.is_maintenance else IncidentStatus.RESOLVED
        body = self.fields["body"]
        body.required = False
        body.help_text = _("Leave it empty to post the default message.")
        language = self.initial.get("language") or self.incident.original_language
        body.widget.attrs["placeholder"] = default_update_text(closing, language=language)
        self.fields["display_at"] = happened_field(_("Resolved at"), _("Leave empty for now."))

    prefix = "resolve"
    action_label, done_message = _("Resolve"), _("Resolved.")
    command_class = ResolveIncident


class IncidentEditForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=TITLE_MAX, validators=[check_title])
    impact = forms.ChoiceField(label=_("Impact"), choices=Impact.choices)
    related = forms.CharField(
        label=_("Related incidents"),
        required=False,
        max_length=4000,
        help_text=_("Slugs of related incidents, separated by commas; the link shows on both pages."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, incident: Incident | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.incident = incident
        self.fields["display_time_zone"] = time_zone_field()
        self.fields["started_at"] = happened_field(_("Started"), _("Leave empty to keep it."))
        self.fields["resolved_at"] = happened_field(
            _("Resolved"), _("Leave empty to keep it; only for a resolved incident.")
        )
        self.fields["reason"] = forms.CharField(
            label=_("Reason for moving it"),
            max_length=MOVE_REASON_MAX,
            required=False,
            help_text=_(
                "Needed, unless you are an admin, to move a published incident's start or end by "
                "more than a day; kept in the audit trail."
            ),
        )

    def clean_related(self) -> list[Incident]:
        names = list(
            dict.fromkeys(name for name in re.split(r"[\s,]+", self.cleaned_data["related"]) if name)
        )
        found = {incident.slug: incident for incident in Incident.objects.filter(slug__in=names)}
        unknown = [name for name in names if name not in found]
        if unknown:
            raise ValidationError(_("No incident has the slug %(names)s.") % {"names": ", ".join(unknown)})
        if self.incident is not None and self.incident.slug in found:
            raise ValidationError(_("An incident cannot be related to itself."))
        return [found[name] for name in names]

    def command(self, incident: Incident) -> EditIncident:
        data = self.cleaned_data
        title = {**incident.title, incident.original_language: data["title"]}
        return command_from(EditIncident, data, title=title, expected_version=data["version"])


class UpdateEditForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=UPDATE_TEXT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def command(self, *, language: str) -> EditUpdate:
        data = self.cleaned_data
        return EditUpdate(language=language, text=data["text"], expected_version=data["version"])
