"""The postmortem editor (a tab per language, the original beside it) and its action items."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.formatting import format_due, format_long_date
from incidents.forms.key_figures import key_figure_formset
from incidents.forms.postmortems import (
    SECTION_TEXT_MAX,
    ActionItemForm,
    PostmortemForm,
    PostmortemPublishForm,
    initial_for_item,
)
from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import (
    publish_postmortem,
    save_action_item,
    unpublish_postmortem,
    write_postmortem,
)
from incidents.models import SECTIONS, ActionItem, DuePrecision, Incident, Postmortem
from incidents.rendering import render_markdown
from incidents.translation import current_language, language_codes
from incidents.validation.concurrency import ConcurrentEdit

from .access import conflict, responder_required, viewer_required


def _language(code: str) -> str:
    if code not in language_codes():
        raise Http404
    return code


def _postmortem(incident: Incident) -> Postmortem | None:
    return Postmortem.objects.filter(incident=incident).first()


def _original_language(incident: Incident) -> str:
    existing = _postmortem(incident)
    return existing.original_language if existing else incident.original_language


def due_text(item: ActionItem) -> str:
    """ "1st quarter 2027 (by 31 March 2027)" in the editor's language; "" without a due date."""
    if not item.due_date:
        return ""
    period = format_due(item.due_date, item.due_precision, current_language())
    if item.due_precision == DuePrecision.DAY:
        return period
    last_day = format_long_date(item.due_by, current_language())
    return _("%(period)s (by %(last_day)s)") % {"period": period, "last_day": last_day}


def _item_forms(postmortem: Postmortem | None, language: str, *, failed=None):
    """(item, form, due text) for each action item; a failed edit keeps what was typed."""
    if postmortem is None:
        return []
    failed_pk, failed_form = failed or (None, None)
    return [
        (
            item,
            failed_form
            if item.pk == failed_pk
            else ActionItemForm(initial=initial_for_item(item, language), prefix=f"item{item.pk}"),
            due_text(item),
        )
        for item in postmortem.action_items.select_related("owner")
    ]


def _page(
    request,
    incident: Incident,
    language: str,
    *,
    form=None,
    previews=None,
    new_item_form=None,
    failed_item=None,
    figure_formset=None,
):
    postmortem = _postmortem(incident)
    original = postmortem.original_language if postmortem else incident.original_language
    completeness = postmortem.completeness() if postmortem else {}
    originals = {}
    if postmortem and language != original:
        originals = {key: getattr(postmortem, key).get(original, "") for key, _label in SECTIONS}
    if form is None:
        initial = {"version": postmortem.version if postmortem else ""}
        if postmortem:
            initial.update({key: getattr(postmortem, key).get(language, "") for key, _label in SECTIONS})
        form = PostmortemForm(initial=initial)
    sections = [(form[key], originals.get(key, ""), (previews or {}).get(key)) for key, _label in SECTIONS]
    context = {
        "incident": incident,
        "postmortem": postmortem,
        "language": language,
        "original_language": original,
        "tabs": [(code, name, completeness.get(code, False)) for code, name in settings.LANGUAGES],
        "form": form,
        "sections": sections,
        "show_original": bool(originals),
        "sections_read": list(postmortem.sections_in(language)) if postmortem else [],
        "item_rows": _item_forms(postmortem, language, failed=failed_item),
        "new_item_form": new_item_form or ActionItemForm(prefix="new"),
        "figure_formset": figure_formset or key_figure_formset(postmortem, language),
        "empty_sections": empty_sections(postmortem),
        "draft_key": f"postmortem-draft:{incident.pk}:{language}",
    }
    return render(request, "editor/postmortem.html", context)


@viewer_required
def postmortem(request, pk: int):
    incident = get_object_or_404(Incident, pk=pk)
    return _page(request, incident, _language(request.GET.get("language", _original_language(incident))))


@require_POST
@responder_required
def save(request, pk: int, language: str):
    incident = get_object_or_404(Incident, pk=pk)
    language = _language(language)
    form = PostmortemForm(request.POST)
    if form.is_valid():
        sections = form.sections()
        try:
            write_postmortem(incident, form.command(language=language), actor=request.user)
        except ConcurrentEdit as error:
            current = error.current
            return conflict(
                request,
                what=str(current),
                rows=[
                    (label, sections[key], getattr(current, key).get(language, "")) for key, label in SECTIONS
                ],
                retry_url=request.path,
                retry_data={**sections, "version": current.version},
                back_url=f"{reverse('editor:postmortem', args=[pk])}?language={language}",
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Postmortem saved."))
            return redirect(f"{reverse('editor:postmortem', args=[pk])}?language={language}")
    return _page(request, incident, language, form=form)


@require_POST
@responder_required
def save_figures(request, pk: int, language: str):
    incident = get_object_or_404(Incident, pk=pk)
    language = _language(language)
    postmortem = _postmortem(incident)
    formset = key_figure_formset(postmortem, language, data=request.POST)
    if formset.is_valid():
        figures = WritePostmortem(language=language, key_figures=formset.figures())
        write_postmortem(incident, figures, actor=request.user)
        messages.success(request, _("Key figures saved."))
        return redirect(f"{reverse('editor:postmortem', args=[pk])}?language={language}#key-figures")
    return _page(request, incident, language, figure_formset=formset)


@require_POST
@responder_required
def preview(request, pk: int, language: str):
    """The editor page again with the typed text kept and each section rendered (works without JS)."""
    incident = get_object_or_404(Incident, pk=pk)
    language = _language(language)
    form = PostmortemForm(request.POST)
    form.is_valid()
    previews = {
        key: render_markdown(request.POST.get(key, "")[:SECTION_TEXT_MAX])
        for key, _label in SECTIONS
        if request.POST.get(key, "").strip()
    }
    return _page(request, incident, language, form=form, previews=previews)


@require_POST
@responder_required
def markdown_preview(request):
    """Rendered, sanitised HTML of one Markdown text, for the editor's live preview."""
    text = request.POST.get("text", "")
    if len(text) > SECTION_TEXT_MAX:
        return HttpResponse(_("The text is too long to preview."), status=413, content_type="text/plain")
    return HttpResponse(render_markdown(text), content_type="text/html; charset=utf-8")


def empty_sections(postmortem: Postmortem | None) -> list[tuple[str, str]]:
    """(key, label) of the sections with no text in the postmortem's original language."""
    if postmortem is None:
        return list(SECTIONS)
    original = postmortem.original_language
    return [(key, label) for key, label in SECTIONS if not getattr(postmortem, key).get(original, "").strip()]


@require_POST
@responder_required
def publish(request, pk: int):
    """Publishes; sections still empty are listed and need the responder's explicit confirmation."""
    incident = get_object_or_404(Incident, pk=pk)
    postmortem = _postmortem(incident)
    form = PostmortemPublishForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(message for errors in form.errors.values() for message in errors))
        return redirect("editor:postmortem", pk)
    empty = empty_sections(postmortem)
    if postmortem is None or len(empty) == len(SECTIONS):
        messages.error(request, _("An empty postmortem cannot be published."))
        return redirect("editor:postmortem", pk)
    if empty and not form.cleaned_data["publish_with_empty_sections"]:
        messages.error(
            request,
            _("Not published: %(sections)s still empty. Write them, or confirm publishing without them.")
            % {"sections": ", ".join(str(label) for _key, label in empty)},
        )
        return redirect("editor:postmortem", pk)
    try:
        publish_postmortem(postmortem, actor=request.user, published_at=form.cleaned_data["published_at"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Postmortem published."))
    return redirect("editor:postmortem", pk)


@require_POST
@responder_required
def unpublish(request, pk: int):
    incident = get_object_or_404(Incident, pk=pk)
    postmortem = get_object_or_404(Postmortem, incident=incident)
    unpublish_postmortem(postmortem, actor=request.user)
    messages.success(request, _("Postmortem taken back to draft."))
    return redirect("editor:postmortem", pk)


def _fill(item: ActionItem, form: ActionItemForm, language: str) -> ActionItem:
    data = form.cleaned_data
    item.title = {**item.title, language: data["title"].strip()}
    item.owner_name = "" if data["owner"] else data["owner_name"].strip()
    for field in ("owner", "due_date", "due_precision", "state", "is_public"):
        setattr(item, field, data[field])
    return item


@require_POST
@responder_required
def add_action_item(request, pk: int):
    incident = get_object_or_404(Incident, pk=pk)
    language = _language(request.POST.get("language", _original_language(incident)))
    form = ActionItemForm(request.POST, prefix="new")
    if form.is_valid():
        postmortem = _postmortem(incident) or write_postmortem(
            incident, WritePostmortem(language=language), actor=request.user
        )
        item = ActionItem(postmortem=postmortem, position=postmortem.action_items.count())
        try:
            save_action_item(_fill(item, form, language), actor=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Action item added."))
            return redirect(f"{reverse('editor:postmortem', args=[pk])}?language={language}#action-items")
    return _page(request, incident, language, new_item_form=form)


@require_POST
@responder_required
def edit_action_item(request, pk: int):
    item = get_object_or_404(ActionItem.objects.select_related("postmortem__incident"), pk=pk)
    incident = item.postmortem.incident
    language = _language(request.POST.get("language", _original_language(incident)))
    form = ActionItemForm(request.POST, prefix=f"item{item.pk}")
    if form.is_valid():
        try:
            save_action_item(_fill(item, form, language), actor=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Action item saved."))
            return redirect(
                f"{reverse('editor:postmortem', args=[incident.pk])}?language={language}#action-items"
            )
    return _page(request, incident, language, failed_item=(item.pk, form))
