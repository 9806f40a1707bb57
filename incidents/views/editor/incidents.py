"""Declaring incidents, the incident cockpit, and scheduling maintenance."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.editor.resolve_plan import resolve_plan
from incidents.forms.base import apply_errors
from incidents.forms.incidents import (
    ClosingForm,
    DeclareForm,
    IncidentEditForm,
    MaintenanceForm,
    ResolveForm,
    UpdateEditForm,
    UpdateForm,
)
from incidents.forms.update_templates import template_initial
from incidents.lifecycle.edits import edit_incident, edit_update, publish_incident
from incidents.lifecycle.opening import open_event, schedule_maintenance
from incidents.lifecycle.updates import TransitionRefused, post_update, reopen_incident, resolve_incident
from incidents.models import AuditEvent, ComponentChange, Incident, IncidentKind, IncidentUpdate
from incidents.selectors.deliveries import delivery_counts
from incidents.translation import current_language, language_codes, pick
from incidents.validation.concurrency import ConcurrentEdit

from .access import conflict, responder_required, viewer_required
from .form_aids import form_components, template_context


@responder_required
def declare(request):
    components = form_components()
    choice = template_context(request, IncidentKind.INCIDENT)
    template, initial = choice["chosen"], {}
    if template is not None and request.method == "GET":
        initial = template_initial(template, language=current_language(), components=components)
    form = DeclareForm(request.POST or None, initial=initial, components=components)
    if request.method == "POST" and form.is_valid():
        try:
            incident = open_event(form.command(), actor=request.user)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Incident declared."))
            return redirect("editor:incident", incident.pk)
    return render(request, "editor/declare.html", {"form": form, **choice})


@responder_required
def new_maintenance(request):
    form = MaintenanceForm(request.POST or None, components=form_components())
    if request.method == "POST" and form.is_valid():
        try:
            incident = schedule_maintenance(form.command(), actor=request.user)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Maintenance scheduled."))
            return redirect("editor:incident", incident.pk)
    return render(request, "editor/maintenance.html", {"form": form})


def _load(pk: int) -> Incident:
    changes = ComponentChange.objects.select_related("component")
    updates = (
        IncidentUpdate.objects.timeline()
        .select_related("author")
        .prefetch_related(Prefetch("component_changes", queryset=changes))
    )
    return get_object_or_404(
        Incident.objects.prefetch_related(Prefetch("updates", queryset=updates), "components"), pk=pk
    )


def _cockpit(request, incident: Incident, *, update_form=None, resolve_form=None, reopen_form=None):
    choice = template_context(request, incident.kind)
    template = choice["chosen"]
    if update_form is None:
        components = form_components()
        initial = {}
        if template is not None:
            initial = template_initial(
                template,
                language=incident.original_language,
                components=components,
                statuses=incident.allowed_statuses(),
            )
        update_form = UpdateForm(initial=initial, incident=incident, components=components)
    closing_initial = {"language": incident.original_language, "version": incident.version}
    context = {
        "incident": incident,
        "title": pick(incident.title, language=incident.original_language),
        "updates": incident.updates.all(),
        "deliveries": delivery_counts(incident.updates.all()),
        "update_form": update_form,
        "resolve_form": resolve_form or ResolveForm(initial=closing_initial, incident=incident),
        "reopen_form": reopen_form or ClosingForm(initial=closing_initial, incident=incident),
        "plan": resolve_plan(incident, language=current_language()) if incident.is_open else [],
        **choice,
        "audit_events": AuditEvent.objects.filter(incident=incident).select_related("actor")[:50],
        "postmortem": getattr(incident, "postmortem", None),
    }
    return render(request, "editor/incident.html", context)


@viewer_required
def incident_detail(request, pk: int):
    return _cockpit(request, _load(pk))


@require_POST
@responder_required
def add_update(request, pk: int):
    incident = _load(pk)
    form = UpdateForm(request.POST, incident=incident, components=form_components())
    if form.is_valid():
        try:
            post_update(incident, form.command(), actor=request.user)
        except TransitionRefused as refused:
            return _refused_transition(request, incident, refused)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Update posted."))
            return redirect("editor:incident", incident.pk)
    return _cockpit(request, incident, update_form=form)


def _refused_transition(request, incident: Incident, refused: TransitionRefused):
    # The page shows what can be done now (reopen, or post an update), with the reason.
    messages.error(request, " ".join(refused.messages))
    return redirect("editor:incident", incident.pk)


def _closing(request, pk: int, *, form_class: type[ClosingForm], run):
    incident = _load(pk)
    form = form_class(request.POST, incident=incident)
    prefix = form.prefix
    if form.is_valid():
        data = form.cleaned_data
        try:
            run(incident, form.command(), actor=request.user)
        except ConcurrentEdit as error:
            current = _load(pk)
            latest = current.updates.all()[0]
            return conflict(
                request,
                what=str(incident),
                rows=[
                    (_("Status"), form.action_label, current.get_status_display()),
                    (_("Message"), data["body"], pick(latest.body, language=data["language"]).text),
                ],
                retry_url=request.path,
                retry_data={
                    f"{prefix}-language": data["language"],
                    f"{prefix}-body": data["body"],
                    f"{prefix}-version": error.current.version,
                },
                back_url=reverse("editor:incident", args=[pk]),
            )
        except TransitionRefused as refused:
            return _refused_transition(request, incident, refused)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, form.done_message)
            return redirect("editor:incident", incident.pk)
    return _cockpit(request, incident, **{f"{prefix}_form": form})


@require_POST
@responder_required
def resolve(request, pk: int):
    return _closing(request, pk, form_class=ResolveForm, run=resolve_incident)


@require_POST
@responder_required
def reopen(request, pk: int):
    return _closing(request, pk, form_class=ClosingForm, run=reopen_incident)


@require_POST
@responder_required
def publish(request, pk: int):
    incident = get_object_or_404(Incident, pk=pk)
    publish_incident(incident, actor=request.user)
    messages.success(request, _("Published."))
    return redirect("editor:incident", pk)


@responder_required
def edit(request, pk: int):
    incident = get_object_or_404(Incident, pk=pk)
    language = incident.original_language
    initial = {
        "title": incident.title.get(language, ""),
        "impact": incident.impact,
        "display_time_zone": incident.display_time_zone,
        "related": ", ".join(incident.related.order_by("slug").values_list("slug", flat=True)),
        "version": incident.version,
    }
    form = IncidentEditForm(request.POST or None, initial=initial, incident=incident)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            edit_incident(incident, form.command(incident), actor=request.user)
        except ConcurrentEdit as error:
            current = error.current
            return conflict(
                request,
                what=str(incident),
                rows=[
                    (_("Title"), data["title"], current.title.get(language, "")),
                    (_("Impact"), data["impact"], current.impact),
                    (_("Time zone"), data["display_time_zone"], current.display_time_zone),
                ],
                retry_url=request.path,
                retry_data={
                    "title": data["title"],
                    "impact": data["impact"],
                    "display_time_zone": data["display_time_zone"],
                    "version": current.version,
                },
                back_url=reverse("editor:incident", args=[pk]),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("editor:incident", pk)
    return render(request, "editor/incident_edit.html", {"form": form, "incident": incident})


@responder_required
def edit_update_view(request, pk: int, language: str):
    if language not in language_codes():
        raise Http404
    update = get_object_or_404(IncidentUpdate.objects.select_related("incident"), pk=pk)
    initial = {"text": update.body.get(language, ""), "version": update.version}
    form = UpdateEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            edit_update(update, form.command(language=language), actor=request.user)
        except ConcurrentEdit as error:
            return conflict(
                request,
                what=str(update.incident),
                rows=[(_("Message"), data["text"], error.current.body.get(language, ""))],
                retry_url=request.path,
                retry_data={"text": data["text"], "version": error.current.version},
                back_url=reverse("editor:incident", args=[update.incident_id]),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Update corrected."))
            return redirect("editor:incident", update.incident_id)
    return render(
        request,
        "editor/update_edit.html",
        {"form": form, "update": update, "incident": update.incident, "language": language},
    )
