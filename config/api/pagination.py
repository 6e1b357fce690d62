from rest_framework import pagination
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """`{"next", "previous", "results"}` (SPEC section 1), without a COUNT query: one row more
    than the page tells whether there is a next one. A bad limit or offset is a 400."""

    default_limit = 50
    max_limit = 500

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.limit = self._read(request, self.limit_query_param, self.default_limit, minimum=1)
        self.limit = min(self.limit, self.max_limit)
        self.offset = self._read(request, self.offset_query_param, 0, minimum=0)
        rows = list(queryset[self.offset:self.offset + self.limit + 1])
        self.has_next = len(rows) > self.limit
        return rows[:self.limit]

    @staticmethod
    def _read(request, name: str, default: int, *, minimum: int) -> int:
        raw = request.query_params.get(name)
        if raw is None:
            return default
        if not raw.isdigit() or int(raw) < minimum:
            raise ValidationError({name: [f"Expected an integer of at least {minimum}."]})
        return int(raw)

    def get_next_link(self):
        if not self.has_next:
            return None
        url = replace_query_param(self.request.build_absolute_uri(), self.limit_query_param, self.limit)
        return replace_query_param(url, self.offset_query_param, self.offset + self.limit)

    def get_previous_link(self):
        if self.offset <= 0:
            return None
        url = replace_query_param(self.request.build_absolute_uri(), self.limit_query_param, self.limit)
        if self.offset - self.limit <= 0:
            return remove_query_param(url, self.offset_query_param)
        return replace_query_param(url, self.offset_query_param, self.offset - self.limit)

    def get_paginated_response(self, data):
        return Response({"next": self.get_next_link(), "previous": self.get_previous_link(),
                         "results": data})

    def get_paginated_response_schema(self, schema):
        link = {"type": "string", "format": "uri", "nullable": True}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": link, "results": schema},
        }
