"""Page-number pagination: ?page=N&page_size=M (at most 200)."""

import re

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    @property
    def page_size(self) -> int:
        return settings.API_PAGE_SIZE

    def get_page_size(self, request) -> int:
        """The page size asked for; anything but a whole number from 1 to 200 is refused."""
        asked = request.query_params.get(self.page_size_query_param)
        if asked is None:
            return self.page_size
        if not re.fullmatch(r"[0-9]{1,3}", asked) or not 1 <= int(asked) <= self.max_page_size:
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        _("Enter a whole number from 1 to %(max)s.") % {"max": self.max_page_size}
                    ]
                }
            )
        return int(asked)
