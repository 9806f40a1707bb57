"""The Django admin: a fallback console for every model.

Edits made here go through the services where one exists, so they leave an audit trail.
"""

from django.contrib import admin

from incidents import models
from incidents.services.components import save_component, save_group
from incidents.services.metrics import save_metric


class AuditedAdmin(admin.ModelAdmin):
    save_service = None

    def save_model(self, request, obj, form, change):
        type(self).save_service(obj, actor=request.user)


class MetricInline(admin.TabularInline):
    model = models.Metric
    extra = 0
    fields = (
        "slug",
        "name",
        "unit",
        "degraded_threshold",
        "partial_outage_threshold",
        "major_outage_threshold",
    )
    show_change_link = True


@admin.register(models.ComponentGroup)
class ComponentGroupAdmin(AuditedAdmin):
    save_service = save_group
    list_display = ("slug", "__str__", "position")


@admin.register(models.Component)
class ComponentAdmin(AuditedAdmin):
    save_service = save_component
    list_display = ("slug", "__str__", "group", "status", "status_mode", "position")
    list_filter = ("group", "status", "status_mode")
    readonly_fields = ("status", "status_changed_at")
    inlines = [MetricInline]


@admin.register(models.StatusPeriod)
class StatusPeriodAdmin(admin.ModelAdmin):
    list_display = ("component", "status", "started_at", "ended_at")
    list_filter = ("component", "status")


@admin.register(models.Metric)
class MetricAdmin(AuditedAdmin):
    save_service = save_metric
    list_display = (
        "__str__",
        "unit",
        "latest_value",
        "latest_at",
        "degraded_threshold",
        "partial_outage_threshold",
        "major_outage_threshold",
    )
    readonly_fields = ("latest_value", "latest_at")


@admin.register(models.Sample)
class SampleAdmin(admin.ModelAdmin):
    list_display = ("metric", "at", "value", "outcome")
    list_filter = ("outcome",)
    date_hierarchy = "at"


@admin.register(models.Rollup)
class RollupAdmin(admin.ModelAdmin):
    list_display = ("metric", "resolution", "bucket_start", "count", "minimum", "maximum", "p95")
    list_filter = ("resolution",)


class UpdateInline(admin.StackedInline):
    model = models.IncidentUpdate
    extra = 0
    fields = ("status", "body", "original_language", "display_at", "author")


@admin.register(models.Incident)
class IncidentAdmin(admin.ModelAdmin):
    list_display = ("slug", "kind", "status", "impact", "started_at", "resolved_at", "published_at")
    list_filter = ("kind", "status", "impact")
    search_fields = ("slug",)
    inlines = [UpdateInline]


@admin.register(models.IncidentUpdate)
class IncidentUpdateAdmin(admin.ModelAdmin):
    list_display = ("incident", "status", "display_at", "created_at", "author")


@admin.register(models.ComponentChange)
class ComponentChangeAdmin(admin.ModelAdmin):
    list_display = ("update", "component", "old_status", "new_status")


class ActionItemInline(admin.TabularInline):
    model = models.ActionItem
    extra = 0


@admin.register(models.Postmortem)
class PostmortemAdmin(admin.ModelAdmin):
    list_display = ("incident", "state", "original_language", "published_at")
    inlines = [ActionItemInline]


@admin.register(models.ActionItem)
class ActionItemAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner_name", "owner", "state", "due_date", "due_precision", "is_public")
    list_filter = ("state", "due_precision", "is_public")


@admin.register(models.AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("at", "actor_label", "action", "subject_type", "subject_label")
    list_filter = ("subject_type", "action")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- issue 6: subscriptions ---
@admin.register(models.Subscriber)
class SubscriberAdmin(admin.ModelAdmin):
    list_display = ("__str__", "language", "all_components", "incident", "confirmed_at", "unsubscribed_at")
    list_filter = ("channel", "language", "all_components")
    search_fields = ("email", "endpoint_url", "public_id")
    readonly_fields = ("public_id", "webhook_secret", "token_key", "created_at")
    filter_horizontal = ("components",)
    raw_id_fields = ("incident",)


@admin.register(models.Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("idempotency_key", "channel", "state", "attempts", "next_attempt_at", "sent_at")
    list_filter = ("state", "channel")
    search_fields = ("idempotency_key", "subscriber__email")
    raw_id_fields = ("update", "subscriber")
    readonly_fields = ("idempotency_key", "created_at", "sent_at", "lease_until")
