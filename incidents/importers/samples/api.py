"""POST /api/v1/metrics/{id}/samples/import/: a metric's past samples, all or none."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from incidents.api.base import ApiViewSet
from incidents.models import Metric

from .serializers import SampleImportResultSerializer, SampleImportSerializer
from .service import MAX_IMPORTED_SAMPLES, import_samples

# Room for the most samples an import takes, each with the longest time and number, pretty-printed.
BYTES_PER_SAMPLE = 200


class SampleImportViewSet(ApiViewSet):
    queryset = Metric.objects.all()
    serializer_class = SampleImportSerializer

    def body_limit(self) -> int:
        return max(settings.API_MAX_BODY_BYTES, MAX_IMPORTED_SAMPLES * BYTES_PER_SAMPLE)

    @extend_schema(responses={200: SampleImportResultSerializer})
    def create(self, request, *args, **kwargs):
        """Imports samples of the past (any time since 1970), marked as imported and folded into
        the rollups; one already stored at the same instant is skipped, so a re-import counts
        nothing twice. All or none; one audit event."""
        metric = self.get_object()
        serializer = SampleImportSerializer(data=request.data, context={"metric": metric})
        serializer.is_valid(raise_exception=True)
        values = [(sample["at"], sample["value"]) for sample in serializer.validated_data["samples"]]
        result = import_samples(metric, values, actor=request.user)
        return Response(SampleImportResultSerializer(result).data)
