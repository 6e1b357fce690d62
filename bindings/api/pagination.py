from datetime import UTC

from django.utils.dateparse import parse_datetime
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError

from core.pagination import LimitOffsetPagination, read_limit


class WorkflowCursorPagination(pagination.CursorPagination):
    """Newest first, with an opaque cursor: the list grows without bound, and a page read
    while workflows arrive neither skips nor repeats one. A bad cursor is a 400."""

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 500

    def decode_cursor(self, request):
        """DRF's cursor, with its position (a `created_at`) checked here: DRF hands it to the
        query as it came, and a tampered one then fails inside the database (a 500)."""
        cursor = super().decode_cursor(request)
        if cursor is None or cursor.position is None:
            return cursor
        try:
            when = parse_datetime(cursor.position)
            if when is None or when.tzinfo is None:
                raise ValueError
            return cursor._replace(position=when.astimezone(UTC))
        except (ValueError, OverflowError):
            raise NotFound(self.invalid_cursor_message) from None

    def get_page_size(self, request):
        """`limit` from 1 to 500, or a 400 (DRF would fall back to the default)."""
        return read_limit(request, self.page_size_query_param, self.page_size,
                          self.max_page_size)

    # The page every list answers (DRF's own example link here is not a valid URI).
    get_paginated_response_schema = LimitOffsetPagination.get_paginated_response_schema

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters

    def paginate_queryset(self, queryset, request, view=None):
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as exc:
            raise ValidationError({"cursor": [str(exc.detail)]}) from None
