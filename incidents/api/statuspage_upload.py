"""POST /api/v1/imports/statuspage/: a Statuspage export uploaded (or fetched) and entered as records.

The same import as `manage.py import_statuspage` (docs/import.md), in one transaction: a refused
document writes nothing. The export comes as a multipart `file`, as the JSON body itself, or as
`{"url": …}` fetched through the outbound address guard.
"""

import json
from collections.abc import Mapping

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiRequest, extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.response import Response

from incidents.services.statuspage_import import import_export
from incidents.services.statuspage_parsing import ImportRefused, fetch, parse_export

from .base import ApiViewSet
from .strict import ApiSerializer

LANGUAGES = [code for code, _name in settings.LANGUAGES]


class StatuspageFileSerializer(ApiSerializer):
    file = serializers.FileField(
        help_text=_("A Statuspage export: incidents.json, summary.json or incident objects.")
    )
    language = serializers.ChoiceField(choices=LANGUAGES, required=False)


class StatuspageUrlSerializer(ApiSerializer):
    url = serializers.URLField(
        help_text=_("An http(s) URL of a Statuspage export, fetched through the guard.")
    )
    language = serializers.ChoiceField(choices=LANGUAGES, required=False)


class StatuspageImportResultSerializer(serializers.Serializer):
    incidents_created = serializers.IntegerField()
    updates_created = serializers.IntegerField()
    components_created = serializers.IntegerField()
    incidents_skipped = serializers.IntegerField(help_text=_("Incidents imported before, left as they are."))


def is_url_request(data) -> bool:
    """A JSON body of just `url` (and `language`) names a document to fetch; any other is one."""
    return isinstance(data, Mapping) and "url" in data and set(data) <= {"url", "language"}


def query_language(request) -> str | None:
    language = request.query_params.get("language")
    if language is not None and language not in LANGUAGES:
        raise serializers.ValidationError({"language": [_("Unknown language.")]})
    return language


def document_of(request) -> tuple[bytes, str | None, str]:
    """The export's bytes, its language, and the field that carried it (named in errors)."""
    language = query_language(request)
    if request.content_type.startswith("multipart/"):
        upload = StatuspageFileSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        return upload.validated_data["file"].read(), upload.validated_data.get("language", language), "file"
    if is_url_request(request.data):
        source = StatuspageUrlSerializer(data=request.data)
        source.is_valid(raise_exception=True)
        try:
            document = fetch(source.validated_data["url"])
        except ImportRefused as error:
            raise serializers.ValidationError({"url": [str(error)]}) from None
        return document, source.validated_data.get("language", language), "url"
    if not isinstance(request.data, Mapping | list) or not request.data:
        raise serializers.ValidationError(
            {"document": [_('Send a Statuspage export: a multipart file, a JSON body, or {"url": …}.')]}
        )
    return json.dumps(request.data).encode(), language, "document"


class StatuspageImportViewSet(mixins.CreateModelMixin, ApiViewSet):
    """Imports a Statuspage export as records of the past (admins; a token needs write scope)."""

    serializer_class = StatuspageImportResultSerializer

    def body_limit(self) -> int:
        return settings.IMPORT_MAX_BODY_BYTES

    @extend_schema(
        operation_id="imports_statuspage_create",
        request={
            "multipart/form-data": StatuspageFileSerializer,
            "application/json": OpenApiRequest(
                OpenApiTypes.OBJECT,
                examples=[
                    OpenApiExample("Fetch", value={"url": "https://status.example.com/api/v2/incidents.json"})
                ],
            ),
        },
        parameters=[
            OpenApiParameter(
                "language", str, enum=LANGUAGES, description=_("The language of the export's texts.")
            )
        ],
        responses={200: StatuspageImportResultSerializer},
    )
    def create(self, request, *args, **kwargs):
        """Imports the incidents not imported before; a second upload of the same export creates none.
        Texts are stored in `language` (default: the site's)."""
        data, language, source_field = document_of(request)
        try:
            with transaction.atomic():
                result = import_export(parse_export(data), language=language or settings.LANGUAGE_CODE)
        except ImportRefused as error:
            raise serializers.ValidationError({source_field: [str(error)]}) from None
        body = {
            "incidents_created": result.incidents,
            "updates_created": result.updates,
            "components_created": result.components,
            "incidents_skipped": result.skipped,
        }
        return Response(StatuspageImportResultSerializer(body).data, status=status.HTTP_200_OK)
