"""DRF's JSON parser with the bounds of incidents.validation.json_bodies (nesting, and no NUL
or unpaired surrogate in any key or string), the default parser of the API."""

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

from incidents.validation.json_bodies import JsonTooDeep, UnstorableText, loads_bounded


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the bounds; strict about NaN and Infinity like DRF's."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            return loads_bounded(text, parse_constant=strict_constant if self.strict else None)
        except JsonTooDeep as error:
            raise ParseError({"body": [str(error)]}) from None
        except UnstorableText as error:
            raise ParseError({error.field: [str(error)]}) from None
        except ValueError as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None
