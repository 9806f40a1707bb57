"""POST /api/v1/imports/statuspage/: a Statuspage export uploaded (or fetched) and entered as records.

The same import as `manage.py import_statuspage` (docs/import.md), in one transaction: a refused
document writes nothing. The export comes as a multipart `file`, as the JSON body itself, or as
`{"url": …}` fetched through the outbound address guard.
"""

from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiRequest, extend_schema
from rest_framework import mixins, serializers
from rest_framework.response import Response

from incidents.api.base import ApiViewSet
from incidents.api.strict import ApiSerializer

from .parsing import parse_export, read_export
from .service import import_upload
from .sources import fetch

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
    incidents_created = serializers.IntegerField(source="incidents")
    updates_created = serializers.IntegerField(source="updates")
    components_created = serializers.IntegerField(source="components")
    incidents_skipped = serializers.IntegerField(
        source="skipped", help_text=_("Incidents imported before, left as they are.")
    )


def query_language(request) -> str | None:
    language = request.query_params.get("language")
    if language is not None and language not in LANGUAGES:
        raise serializers.ValidationError({"language": [_("Unknown language.")]})
    return language


def upload_of(request) -> tuple[str, dict]:
    """The field that carries the export (named in errors), and the upload's checked fields."""
    data = request.data
    if request.content_type.startswith("multipart/"):
        field, upload = "file", StatuspageFileSerializer(data=data)
    elif isinstance(data, Mapping) and "url" in data and set(data) <= {"url", "language"}:
        # A JSON body of just `url` (and `language`) names a document to fetch; any other is one.
        field, upload = "url", StatuspageUrlSerializer(data=data)
    else:
        return "document", {"document": data}
    upload.is_valid(raise_exception=True)
    return field, upload.validated_data


def export_of(upload: dict) -> dict:
    """The export, checked: the uploaded file's, the fetched URL's, or the JSON body's own."""
    if "file" in upload:
        return read_export(upload["file"].read())
    if "url" in upload:
        return read_export(fetch(upload["url"]))
    if not isinstance(upload["document"], Mapping | list) or not upload["document"]:
        raise ValidationError(_('Send a Statuspage export: a multipart file, a JSON body, or {"url": …}.'))
    return parse_export(upload["document"])


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
        language = query_language(request)
        field, upload = upload_of(request)
        try:
            result = import_upload(
                export_of(upload), language=upload.get("language", language) or settings.LANGUAGE_CODE
            )
        except ValidationError as error:
            raise serializers.ValidationError({field: error.messages}) from None
        return Response(StatuspageImportResultSerializer(result).data)
