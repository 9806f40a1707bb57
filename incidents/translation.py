"""Translated content: texts stored per language ({"en": "...", "ru": "..."}) and read with `pick`,
which says the language it showed, so a page can mark a fallback.
"""

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _


def language_codes() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def known_or_default(code: str) -> str:
    """A known language ("ru" from "ru", "ru-RU" or "ru_RU"), else the site's default."""
    code = code.strip().split("-")[0].split("_")[0].lower()
    return code if code in language_codes() else settings.LANGUAGE_CODE


def current_language() -> str:
    """The language this request or task speaks, as its context set it."""
    return known_or_default(translation.get_language() or "")


def validate_language(code: str) -> None:
    if code not in language_codes():
        raise ValidationError(
            _("Unknown language %(code)s; use one of %(known)s."),
            code="unknown_language",
            params={"code": code, "known": ", ".join(language_codes())},
        )


def validate_translations(value: object) -> None:
    if not isinstance(value, dict):
        raise ValidationError(_("Translations must map a language code to a text."), code="invalid")
    for code, text in value.items():
        validate_language(code)
        if not isinstance(text, str):
            raise ValidationError(
                _("The %(code)s text must be a string."), code="invalid", params={"code": code}
            )


class TranslatedField(models.JSONField):
    """A text per language, validated to known language codes."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", dict)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)
        self.validators.append(validate_translations)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("default") is dict:
            del kwargs["default"]
        if kwargs.get("blank") is True:
            del kwargs["blank"]
        return name, path, args, kwargs


@dataclass(frozen=True)
class Shown:
    """A text as shown to a reader: its content, its language and the language asked for."""

    text: str
    language: str
    requested: str

    @property
    def is_fallback(self) -> bool:
        return bool(self.text) and self.language != self.requested

    def __str__(self) -> str:
        return self.text


def pick(texts: dict[str, str] | None, *, language: str, original: str | None = None) -> Shown:
    """The text in `language`, else the original's, the default's, then any; never blank if any exists."""
    texts = texts or {}
    requested = language.split("-")[0].lower()
    for code in (requested, original, settings.LANGUAGE_CODE, *sorted(texts)):
        if code and texts.get(code, "").strip():
            return Shown(texts[code], code, requested)
    return Shown("", requested, requested)
