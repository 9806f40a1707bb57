"""Admin screens for component groups and for the roles of staff users."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.base import apply_errors, translated_initial, translated_value
from incidents.forms.components import GroupForm
from incidents.forms.people import RoleForm
from incidents.models import ComponentGroup
from incidents.roles import role_of
from incidents.services.components import save_group
from incidents.services.users import set_role

from .access import admin_required


@admin_required
def group_edit(request, pk: int | None = None):
    group = get_object_or_404(ComponentGroup, pk=pk) if pk else ComponentGroup()
    initial = {"slug": group.slug, "position": group.position}
    initial.update(translated_initial("name", group.name))
    initial.update(translated_initial("description", group.description))
    form = GroupForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        group.slug = form.cleaned_data["slug"]
        group.position = form.cleaned_data["position"]
        group.name = translated_value(form, "name")
        group.description = translated_value(form, "description")
        try:
            save_group(group, actor=request.user)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Group saved."))
            return redirect("editor:components")
    return render(request, "editor/group.html", {"form": form, "group": group if pk else None})


@admin_required
def users(request):
    people = get_user_model().objects.filter(is_active=True).order_by("username")
    rows = [
        (person, RoleForm(initial={"role": getattr(role_of(person), "value", "")}, prefix=f"u{person.pk}"))
        for person in people
    ]
    return render(request, "editor/users.html", {"rows": rows})


@require_POST
@admin_required
def user_role(request, pk: int):
    person = get_object_or_404(get_user_model(), pk=pk)
    form = RoleForm(request.POST, prefix=f"u{pk}")
    if form.is_valid():
        try:
            set_role(person, role=form.cleaned_data["role"] or None, actor=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Role saved."))
    else:
        messages.error(request, _("Choose one of the roles."))
    return redirect("editor:users")
