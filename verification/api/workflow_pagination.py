from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError


class WorkflowCursorPagination(pagination.CursorPagination):
    """Newest first, with an opaque cursor: the list grows without bound, and a page read
    while workflows arrive neither skips nor repeats one. A bad cursor is a 400."""

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 500

    def paginate_queryset(self, queryset, request, view=None):
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as exc:
            raise ValidationError({"cursor": [str(exc.detail)]}) from None
