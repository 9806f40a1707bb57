"""The Django admin: a fallback console for every model.

Edits made here go through the services. The incident lifecycle (incidents, their updates and
component changes, postmortems and their action items) is only shown: its writes are the
lifecycle commands, which keep its transitions, notifications and versions.
"""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents import models
from incidents.security.masking import masked_probe_fields, readable_audit_values
from incidents.services.component_limits import check_room_for_components
from incidents.services.components import save_component, save_group
from incidents.services.metrics import THRESHOLDS, save_metric
from incidents.services.probes import PROBE_FIELDS, issue_push_token, save_probe, validate_probe
from incidents.validation.instants import check_fields


class InstantBoundsForm(forms.ModelForm):
    """Every date and time typed in the admin within the platform's bounds, with the error next
    to its field (a year-1 time would otherwise be stored and overflow on every page)."""

    def _post_clean(self):
        super()._post_clean()
        typed = {name: value for name, value in self.cleaned_data.items() if name in self.fields}
        try:
            check_fields(self.instance, typed)
        except ValidationError as error:
            self._update_errors(error)


class ModelAdmin(admin.ModelAdmin):
    form = InstantBoundsForm


class AuditedAdmin(ModelAdmin):
    save_service = None

    def save_model(self, request, obj, form, change):
        type(self).save_service(obj, actor=request.user)


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnlyMixin, ModelAdmin):
    pass


class MetricInline(admin.TabularInline):
    model = models.Metric
    form = InstantBoundsForm
    extra = 0
    fields = ("slug", "name", "unit", *THRESHOLDS)
    show_change_link = True


@admin.register(models.ComponentGroup)
class ComponentGroupAdmin(AuditedAdmin):
    save_service = save_group
    list_display = ("slug", "__str__", "position")


class ComponentAdminForm(InstantBoundsForm):
    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is None:  # the error on the form: save_model cannot show one
            try:
                check_room_for_components()
            except ValidationError as error:
                self.add_error(None, error)
        return cleaned


@admin.register(models.Component)
class ComponentAdmin(AuditedAdmin):
    form = ComponentAdminForm
    save_service = save_component
    list_display = ("slug", "__str__", "group", "status", "status_mode", "position")
    list_filter = ("group", "status", "status_mode")
    readonly_fields = ("status", "status_changed_at")
    inlines = [MetricInline]


@admin.register(models.StatusPeriod)
class StatusPeriodAdmin(ModelAdmin):
    list_display = ("component", "status", "started_at", "ended_at")
    list_filter = ("component", "status")


@admin.register(models.Metric)
class MetricAdmin(AuditedAdmin):
    save_service = save_metric
    list_display = ("__str__", "unit", "latest_value", "latest_at", *THRESHOLDS)
    readonly_fields = ("latest_value", "latest_at")


@admin.register(models.Sample)
class SampleAdmin(ModelAdmin):
    list_display = ("metric", "at", "value", "outcome")
    list_filter = ("outcome",)
    date_hierarchy = "at"


@admin.register(models.Rollup)
class RollupAdmin(ModelAdmin):
    list_display = ("metric", "resolution", "bucket_start", "count", "minimum", "maximum", "p95")
    list_filter = ("resolution",)


class UpdateInline(ReadOnlyMixin, admin.StackedInline):
    model = models.IncidentUpdate
    extra = 0
    fields = ("status", "body", "original_language", "display_at", "author")


@admin.register(models.Incident)
class IncidentAdmin(ReadOnlyAdmin):
    list_display = ("slug", "kind", "status", "impact", "started_at", "resolved_at", "published_at")
    list_filter = ("kind", "status", "impact")
    search_fields = ("slug",)
    inlines = [UpdateInline]


@admin.register(models.IncidentUpdate)
class IncidentUpdateAdmin(ReadOnlyAdmin):
    list_display = ("incident", "status", "display_at", "created_at", "author")


@admin.register(models.ComponentChange)
class ComponentChangeAdmin(ReadOnlyAdmin):
    list_display = ("update", "component", "old_status", "new_status")


class ActionItemInline(ReadOnlyMixin, admin.TabularInline):
    model = models.ActionItem
    extra = 0


@admin.register(models.Postmortem)
class PostmortemAdmin(ReadOnlyAdmin):
    list_display = ("incident", "state", "original_language", "published_at")
    inlines = [ActionItemInline]


@admin.register(models.ActionItem)
class ActionItemAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "owner_name", "owner", "state", "due_date", "due_precision", "is_public")
    list_filter = ("state", "due_precision", "is_public")


@admin.register(models.AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor_label", "action", "subject_type", "subject_label")
    list_filter = ("subject_type", "action")
    exclude = ("before", "after")
    readonly_fields = ("values_before", "values_after")

    @admin.display(description=_("Before"))
    def values_before(self, event):
        return json.dumps(readable_audit_values(event)[0], ensure_ascii=False)

    @admin.display(description=_("After"))
    def values_after(self, event):
        return json.dumps(readable_audit_values(event)[1], ensure_ascii=False)


@admin.register(models.Subscriber)
class SubscriberAdmin(ModelAdmin):
    list_display = (
        "__str__",
        "language",
        "all_components",
        "incident",
        "confirmed_at",
        "unsubscribed_at",
        "follow_ended_at",
    )
    list_filter = ("channel", "language", "all_components")
    search_fields = ("email", "endpoint_url", "public_id")
    readonly_fields = ("public_id", "webhook_secret", "token_key", "created_at")
    filter_horizontal = ("components",)
    raw_id_fields = ("incident",)


@admin.register(models.Delivery)
class DeliveryAdmin(ModelAdmin):
    list_display = ("idempotency_key", "channel", "state", "attempts", "next_attempt_at", "sent_at")
    list_filter = ("state", "channel")
    search_fields = ("idempotency_key", "subscriber__email")
    raw_id_fields = ("update", "status_change", "subscriber")
    readonly_fields = ("idempotency_key", "created_at", "sent_at", "lease_until")


class ProbeAdminForm(InstantBoundsForm):
    class Meta:
        model = models.Probe
        fields = [name.removesuffix("_id") for name in PROBE_FIELDS]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Credentials are write-only: the form shows their masks, and saving them back keeps them.
        if self.instance.pk:
            self.initial.update(
                masked_probe_fields({"url": self.instance.url, "config": self.instance.config})
            )

    def _post_clean(self):
        super()._post_clean()
        try:
            validate_probe(self.instance)
        except ValidationError as error:
            self._update_errors(error)


@admin.register(models.Probe)
class ProbeAdmin(AuditedAdmin):
    save_service = save_probe
    form = ProbeAdminForm
    list_display = ("name", "kind", "metric", "enabled", "interval", "timeout", "next_run_at")
    list_filter = ("kind", "enabled")
    readonly_fields = ("public_id", "webhook_secret", "next_run_at")
    actions = ["issue_token"]

    @admin.action(description=_("Issue a new push token (shown once)"))
    def issue_token(self, request, queryset):
        for probe in queryset.filter(kind=models.ProbeKind.PUSH):
            token = issue_push_token(probe, actor=request.user)
            self.message_user(
                request,
                _("Push token for %(probe)s (copy it now, it is not shown again): %(token)s")
                % {"probe": probe, "token": token},
                level=messages.WARNING,
            )


@admin.register(models.ProbeRun)
class ProbeRunAdmin(ModelAdmin):
    list_display = ("probe", "state", "scheduled_at", "started_at", "finished_at", "value", "detail")
    list_filter = ("state",)
    date_hierarchy = "scheduled_at"


@admin.register(models.CircuitBreaker)
class CircuitBreakerAdmin(ModelAdmin):
    list_display = ("target", "state", "consecutive_failures", "opened_at", "retry_at")
    list_filter = ("state",)


@admin.register(models.MetricHealth)
class MetricHealthAdmin(ModelAdmin):
    list_display = ("metric", "status", "figure", "good_streak", "evaluated_at", "no_data_since")
    list_filter = ("status",)
