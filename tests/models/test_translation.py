import pytest
from django.core.exceptions import ValidationError

from incidents.models import Component
from incidents.translation import pick, validate_translations


def test_requested_language_is_shown_when_present():
    shown = pick({"en": "Webhooks", "ru": "Вебхуки"}, language="ru", original="en")
    assert (shown.text, shown.language, shown.is_fallback) == ("Вебхуки", "ru", False)


def test_missing_translation_falls_back_to_the_original_language_and_says_so():
    shown = pick({"ru": "Задержка доставки", "en": "Delivery delay"}, language="es", original="ru")
    assert shown.text == "Задержка доставки"
    assert shown.language == "ru" and shown.requested == "es" and shown.is_fallback


def test_fallback_goes_to_the_site_language_when_the_original_is_missing():
    shown = pick({"en": "Delivery delay", "nb": ""}, language="nb", original="es")
    assert (shown.text, shown.language) == ("Delivery delay", "en")


def test_any_text_beats_blank():
    shown = pick({"nb": "Forsinkelse"}, language="ru", original="es")
    assert (shown.text, shown.language) == ("Forsinkelse", "nb")


def test_region_codes_use_their_language():
    assert pick({"es": "Retraso"}, language="es-MX").language == "es"


def test_unknown_language_code_is_a_validation_error():
    with pytest.raises(ValidationError) as error:
        validate_translations({"en": "x", "de": "y"})
    assert "de" in error.value.messages[0]


def test_model_validation_rejects_unknown_language(db):
    component = Component(slug="api", name={"xx": "API"})
    with pytest.raises(ValidationError) as error:
        component.full_clean()
    assert "name" in error.value.message_dict
