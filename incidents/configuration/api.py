"""/api/v1/config/: the export, the diff and the apply of `manage.py config` for automation.

Admins only (a token needs write scope to diff or apply), reads included: the configuration names
every probe target. A document comes as JSON or YAML (Content-Type application/yaml); a refused
one is a 400 naming each mistake by its path, {"components[3].group": ["unknown group …"]}.
"""

import json
import os

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from incidents.api.base import ApiViewSet
from incidents.api.parsers import BoundedJSONParser
from incidents.editor.audit_text import change_text
from incidents.roles import can_administer

from .applying import apply_configuration, preview_configuration
from .document import DocumentError, parse_yaml, schema, to_yaml
from .export import export_document

YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml")


class YamlRenderer(BaseRenderer):
    media_type = "application/yaml"
    format = "yaml"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        # Through JSON first: error bodies hold DRF's ErrorDetail strings, which YAML cannot write.
        return to_yaml(json.loads(JSONRenderer().render(data) or b"null")).encode()


class YamlParser(BaseParser):
    media_type = "application/yaml"

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return parse_yaml(stream.read())
        except DocumentError as error:
            raise ParseError(str(error)) from None


class ChangeSerializer(serializers.Serializer):
    section = serializers.CharField(help_text=_("The document's section: components, probes…"))
    key = serializers.CharField(help_text=_("The object's slug, name, or component/metric."))
    action = serializers.ChoiceField(choices=["added", "changed", "removed", "kept"])
    field = serializers.CharField(required=False, help_text=_("The changed field's path, as name.en."))
    before = serializers.JSONField(required=False, allow_null=True)
    after = serializers.JSONField(required=False, allow_null=True)
    secret = serializers.BooleanField(required=False, help_text=_("A credential: its values are not shown."))
    text = serializers.CharField(help_text=_("The change in words."))


class PlanSerializer(serializers.Serializer):
    changes = ChangeSerializer(many=True)
    applied = serializers.IntegerField(help_text=_("How many changes were applied (a diff: would be)."))


class AppliedSerializer(PlanSerializer):
    push_tokens = serializers.DictField(
        child=serializers.CharField(),
        help_text=_("Tokens of the push probes created, by metric: shown only in this response."),
    )


PRUNE = OpenApiParameter(
    "prune", bool, description=_("Remove what the document's sections do not list (otherwise kept).")
)
DOCUMENT = {
    "application/json": OpenApiTypes.OBJECT,
    "application/yaml": OpenApiTypes.OBJECT,
}


def _changes(plan) -> list[dict]:
    return [{**change.as_dict(), "text": change_text(change.as_dict())} for change in plan.changes]


def _refused(error: DocumentError) -> serializers.ValidationError:
    found: dict[str, list[str]] = {}
    for problem in error.problems:
        found.setdefault(problem.path or "non_field_errors", []).append(problem.message)
    return serializers.ValidationError(found)


class ConfigurationViewSet(ApiViewSet):
    """The configuration as one document (docs/configuration.md)."""

    read_permission = staticmethod(can_administer)
    parser_classes = [BoundedJSONParser, YamlParser]
    renderer_classes = [JSONRenderer, YamlRenderer]
    serializer_class = PlanSerializer

    def get_renderers(self):
        # Only the export is offered as YAML; the answers of diff and apply are JSON.
        if getattr(self, "action", None) == "export":
            return super().get_renderers()
        return [JSONRenderer()]

    def _prune(self) -> bool:
        return self.request.query_params.get("prune", "").lower() in ("1", "true", "yes")

    @extend_schema(
        operation_id="config_retrieve",
        responses={
            (200, media_type): OpenApiResponse(
                OpenApiTypes.OBJECT, description=_("The configuration document.")
            )
            for media_type in ("application/json", "application/yaml")
        },
    )
    def export(self, request, *args, **kwargs):
        """The configuration, as JSON or, with Accept: application/yaml, as the YAML file
        `manage.py config export` writes. Credentials are references to variables, never values."""
        return Response(export_document())

    @extend_schema(
        operation_id="config_schema_retrieve",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description=_("The document's JSON Schema."))},
    )
    def json_schema(self, request, *args, **kwargs):
        """The JSON Schema every configuration document is checked against first."""
        return Response(schema())

    @extend_schema(
        operation_id="config_diff", request=DOCUMENT, parameters=[PRUNE], responses={200: PlanSerializer}
    )
    def diff(self, request, *args, **kwargs):
        """What applying the document would change, each change in words; writes nothing."""
        try:
            plan = preview_configuration(request.data, environ=os.environ, prune=self._prune())
        except DocumentError as error:
            raise _refused(error) from None
        return Response({"changes": _changes(plan), "applied": len(plan.writes)})

    @extend_schema(
        operation_id="config_apply", request=DOCUMENT, parameters=[PRUNE], responses={200: AppliedSerializer}
    )
    def apply(self, request, *args, **kwargs):
        """Applies the document in one transaction, recorded as "configuration applied"; a
        document with any mistake changes nothing. Applying it again changes nothing."""
        try:
            applied = apply_configuration(
                request.data, actor=request.user, environ=os.environ, prune=self._prune()
            )
        except DocumentError as error:
            raise _refused(error) from None
        body = {"changes": _changes(applied.plan), "applied": len(applied.plan.writes)}
        return Response({**body, "push_tokens": applied.push_tokens})
