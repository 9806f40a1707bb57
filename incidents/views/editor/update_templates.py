"""Reusable update texts per language."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.incidents import UpdateTemplateForm
from incidents.models import UpdateTemplate
from incidents.services.incidents import ConcurrentEdit
from incidents.services.update_templates import delete_update_template, save_update_template

from .access import conflict, responder_required, viewer_required


@viewer_required
def template_list(request):
    return render(
        request,
        "editor/update_templates.html",
        {"templates": UpdateTemplate.objects.all(), "form": UpdateTemplateForm()},
    )


@require_POST
@responder_required
def template_new(request):
    form = UpdateTemplateForm(request.POST)
    if form.is_valid():
        save_update_template(form.save(commit=False), actor=request.user)
        messages.success(request, _("Template saved."))
        return redirect("editor:update-templates")
    return render(
        request, "editor/update_templates.html", {"templates": UpdateTemplate.objects.all(), "form": form}
    )


@responder_required
def template_edit(request, pk: int):
    template = get_object_or_404(UpdateTemplate, pk=pk)
    saved = {f: getattr(template, f) for f in ("name", "language", "kind", "status", "body")}
    form = UpdateTemplateForm(request.POST or None, instance=template)
    if request.method == "POST" and form.is_valid():
        try:
            save_update_template(
                form.save(commit=False), actor=request.user, expected_version=form.cleaned_data["version"]
            )
        except ConcurrentEdit as error:
            current = error.current
            return conflict(
                request,
                what=str(current),
                mine=[(_("Name"), form.cleaned_data["name"]), (_("Text"), form.cleaned_data["body"])],
                theirs=[(_("Name"), current.name), (_("Text"), current.body)],
                retry_url=request.path,
                retry_data={**{k: form.cleaned_data[k] for k in saved}, "version": current.version},
                back_url=reverse("editor:update-templates"),
            )
        messages.success(request, _("Template saved."))
        return redirect("editor:update-templates")
    return render(request, "editor/update_template.html", {"form": form, "template": template})


@require_POST
@responder_required
def template_delete(request, pk: int):
    template = get_object_or_404(UpdateTemplate, pk=pk)
    delete_update_template(template, actor=request.user)
    messages.success(request, _("Template deleted."))
    return redirect("editor:update-templates")
