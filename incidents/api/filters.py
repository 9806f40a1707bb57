"""Query parameters of the list endpoints as FilterSets: drf-spectacular documents them, and a bad
value is a 400 naming the parameter, not a 500 and not silently ignored."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_filters import filters as plain
from django_filters.rest_framework import DjangoFilterBackend, FilterSet, filters

from incidents.models import (
    ActionItem,
    AuditEvent,
    Component,
    Incident,
    Metric,
    Postmortem,
    Probe,
    ProbeRun,
    Sample,
    Subscriber,
)
from incidents.validation.instants import check_any

BIGGEST_ROW_ID = 2**63 - 1


class ListFilters(DjangoFilterBackend):
    """A list's query parameters through its view's `filterset_class`; one object's URL ignores them."""

    def get_filterset_class(self, view, queryset=None):
        return super().get_filterset_class(view, queryset) if view.action == "list" else None


class StrictBooleanField(forms.NullBooleanField):
    widget = forms.TextInput

    def to_python(self, value):
        if value in self.empty_values:
            return None
        flag = {"true": True, "1": True, "false": False, "0": False}.get(str(value).lower())
        if flag is None:
            raise ValidationError(_("Must be a valid boolean."), code="invalid")
        return flag


class Flag(plain.BooleanFilter):
    """`true` or `false`; anything else is refused (django-filter's own widget ignores it)."""

    field_class = StrictBooleanField


class InstantField(forms.DateTimeField):
    """An ISO 8601 time within the platform's bounds, read as UTC: PostgreSQL refuses offsets
    past ±15:59. The bounds are checked first, so converting a year-1 time cannot overflow."""

    def to_python(self, value):
        at = super().to_python(value)
        if at is None:
            return None
        check_any(at)
        return at.astimezone(dt.UTC)


class Instant(filters.IsoDateTimeFilter):
    field_class = InstantField


class RowId(filters.NumberFilter):
    field_class = forms.IntegerField

    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=BIGGEST_ROW_ID, **kwargs)


def component(field: str, *, help_text: str = "A component id or slug.") -> filters.CharFilter:
    """`?component=` by public id or slug, through the relation `field`."""

    def by_id_or_slug(queryset, _name, value):
        return queryset.filter(
            Q(**{f"{field}__public_id": value}) | Q(**{f"{field}__slug": value})
        ).distinct()

    return filters.CharFilter(method=by_id_or_slug, max_length=50, help_text=help_text)


class IncidentFilters(FilterSet):
    component = component("components")
    published = Flag(field_name="published_at", lookup_expr="isnull", exclude=True)
    started_after = Instant(field_name="started_at", lookup_expr="gte")
    started_before = Instant(field_name="started_at", lookup_expr="lt")

    class Meta:
        model = Incident
        fields = ["status", "kind"]


class ComponentFilters(FilterSet):
    group = component("group", help_text="A group id or slug.")

    class Meta:
        model = Component
        fields = ["status"]


class MetricFilters(FilterSet):
    component = component("component")

    class Meta:
        model = Metric
        fields = []


class SampleFilters(FilterSet):
    metric = RowId(field_name="metric__id")
    after = Instant(field_name="at", lookup_expr="gte")
    before = Instant(field_name="at", lookup_expr="lt")

    class Meta:
        model = Sample
        fields = ["outcome"]


class PostmortemFilters(FilterSet):
    incident = filters.CharFilter(
        field_name="incident__public_id", max_length=50, help_text="An incident id."
    )

    class Meta:
        model = Postmortem
        fields = ["state"]


class ActionItemFilters(FilterSet):
    postmortem = RowId(field_name="postmortem__id")

    class Meta:
        model = ActionItem
        fields = ["state"]


class AuditEventFilters(FilterSet):
    action = filters.CharFilter(max_length=64)
    incident = filters.CharFilter(
        field_name="incident__public_id", max_length=50, help_text="An incident id."
    )
    after = Instant(field_name="at", lookup_expr="gte")
    before = Instant(field_name="at", lookup_expr="lt")

    class Meta:
        model = AuditEvent
        fields = ["subject_type"]


class ProbeFilters(FilterSet):
    enabled = Flag()
    component = component("metric__component")

    class Meta:
        model = Probe
        fields = ["kind"]


class ProbeRunFilters(FilterSet):
    probe = filters.CharFilter(field_name="probe__public_id", max_length=50, help_text="A probe id.")
    after = Instant(
        field_name="scheduled_at", lookup_expr="gte", help_text="Runs scheduled at or after this time."
    )
    before = Instant(
        field_name="scheduled_at", lookup_expr="lt", help_text="Runs scheduled before this time."
    )

    class Meta:
        model = ProbeRun
        fields = ["state"]


class SubscriberFilters(FilterSet):
    confirmed = Flag(field_name="confirmed_at", lookup_expr="isnull", exclude=True)
    email = filters.CharFilter(lookup_expr="iexact", max_length=254, help_text="An exact address (any case).")
    component = filters.CharFilter(method="covering", max_length=50, help_text="A component id or slug.")

    class Meta:
        model = Subscriber
        fields = ["channel"]

    def covering(self, queryset, _name, value):
        """Subscribers of every component, and those who chose this one."""
        chose = Q(components__public_id=value) | Q(components__slug=value)
        return queryset.filter(Q(all_components=True) | chose).distinct()
