"""Page-number pagination: ?page=N&page_size=M (at most 200)."""

from django.conf import settings
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    @property
    def page_size(self) -> int:
        return settings.API_PAGE_SIZE
