"""Update templates: a title and a text per language, a status and the components it marks."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.update_templates import UpdateTemplateForm
from incidents.models import UpdateTemplate
from incidents.services.update_templates import delete_update_template, save_update_template
from incidents.translation import pick
from incidents.validation.concurrency import ConcurrentEdit

from .access import conflict, responder_required, viewer_required
from .form_aids import form_components


def _list(request, form):
    rows = [
        (template, pick(template.body, language=template.language))
        for template in UpdateTemplate.objects.all()
    ]
    return render(request, "editor/update_templates.html", {"rows": rows, "form": form})


@viewer_required
def template_list(request):
    return _list(request, UpdateTemplateForm(components=form_components()))


@require_POST
@responder_required
def template_new(request):
    form = UpdateTemplateForm(request.POST, components=form_components())
    if form.is_valid():
        save_update_template(form.save(commit=False), actor=request.user)
        messages.success(request, _("Template saved."))
        return redirect("editor:update-templates")
    return _list(request, form)


@responder_required
def template_edit(request, pk: int):
    template = get_object_or_404(UpdateTemplate, pk=pk)
    form = UpdateTemplateForm(request.POST or None, instance=template, components=form_components())
    if request.method == "POST" and form.is_valid():
        edited = form.save(commit=False)
        try:
            save_update_template(edited, actor=request.user, expected_version=form.cleaned_data["version"])
        except ConcurrentEdit as error:
            current = error.current
            language = edited.language
            return conflict(
                request,
                what=str(current),
                rows=[
                    (_("Name"), edited.name, current.name),
                    (_("Text"), edited.body.get(language, ""), current.body.get(language, "")),
                ],
                retry_url=request.path,
                retry_data={
                    **{key: value for key, value in request.POST.items() if key != "csrfmiddlewaretoken"},
                    "version": current.version,
                },
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
