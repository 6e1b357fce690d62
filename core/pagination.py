import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan, TupleLessThan
from rest_framework import pagination
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

MAX_OFFSET = 10**12


def _digits(raw: str) -> bool:
    return raw.isascii() and raw.isdigit()  # not "²", which isdigit() takes and int() not


def read_limit(request, name: str, default: int, maximum: int) -> int:
    """The page size asked for, from 1 to `maximum`; a 400 that gives the range otherwise
    (a larger one was once cut to `maximum` silently, while the 400 spoke of 10**12)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # The length first: int() of thousands of digits is slow (and refused beyond 4,300).
    if not _digits(raw) or len(raw) > 12 or not 1 <= int(raw) <= maximum:
        raise ValidationError({name: [f"Expected an integer from 1 to {maximum}."]})
    return int(raw)


def _limit_description(paginator) -> str:
    return f"Page size, {paginator.default_limit} by default, from 1 to {paginator.max_limit}."


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    """`{"next", "previous", "results"}` (SPEC section 1), without a COUNT query: one row more
    than the page tells whether there is a next one. A bad limit or offset is a 400."""

    default_limit = 50
    max_limit = 500

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.limit = read_limit(request, self.limit_query_param, self.default_limit,
                                self.max_limit)
        self.offset = self._read(request, self.offset_query_param, 0, minimum=0)
        rows = list(queryset[self.offset:self.offset + self.limit + 1])
        self.has_next = len(rows) > self.limit
        return rows[:self.limit]

    @staticmethod
    def _read(request, name: str, default: int, *, minimum: int) -> int:
        raw = request.query_params.get(name)
        if raw is None:
            return default
        # Bounded, so that OFFSET stays within PostgreSQL's bigint (and sane).
        if not _digits(raw) or len(raw) > 12 or not minimum <= int(raw) <= MAX_OFFSET:
            raise ValidationError(
                {name: [f"Expected an integer from {minimum} to {MAX_OFFSET}."]})
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

    def get_schema_operation_parameters(self, view):
        # The bounds _read enforces, so that the schema does not promise what is a 400.
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["description"] = _limit_description(self)
                parameter["schema"].update(minimum=1, maximum=self.max_limit)
            else:
                parameter["schema"].update(minimum=0, maximum=MAX_OFFSET)
        return parameters

    def get_paginated_response_schema(self, schema):
        link = {"type": "string", "format": "uri", "nullable": True}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": link, "results": schema},
        }


class KeysetPagination(pagination.BasePagination):
    """Newest first on (`time_field`, id), with an opaque cursor holding the position of the
    last row seen: rows that arrive meanwhile neither shift nor repeat a page, as an offset
    would make them, and a deep page costs what the first does (an index range, no COUNT).
    `limit` sets the page size; a malformed cursor is a 400."""

    time_field = "time"
    default_limit = 50
    max_limit = 500
    cursor_query_param = "cursor"
    limit_query_param = "limit"

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.limit = read_limit(request, self.limit_query_param, self.default_limit,
                                self.max_limit)
        position = self._decode(request.query_params.get(self.cursor_query_param))
        keys = Tuple(self.time_field, "id")
        desc = (f"-{self.time_field}", "-id")
        if position is None:  # the first page
            rows = list(queryset.order_by(*desc)[:self.limit + 1])
            page = rows[:self.limit]
            self.next = page[-1] if len(rows) > self.limit else None
            self.previous = None
        elif position.forward:  # older rows than the position
            rows = list(queryset.filter(TupleLessThan(keys, position.key))
                        .order_by(*desc)[:self.limit + 1])
            page = rows[:self.limit]
            self.next = page[-1] if len(rows) > self.limit else None
            self.previous = page[0] if page else position
        else:  # newer rows than the position, read upwards, shown newest first
            rows = list(queryset.filter(TupleGreaterThan(keys, position.key))
                        .order_by(*(d.lstrip("-") for d in desc))[:self.limit + 1])
            page = rows[:self.limit][::-1]
            self.previous = page[0] if len(rows) > self.limit else None
            self.next = page[-1] if page else position
        return page

    def _decode(self, raw: str | None) -> "_Position | None":
        if raw is None:
            return None
        try:
            text = base64.urlsafe_b64decode(raw.encode("ascii") + b"=" * (-len(raw) % 4)).decode()
            match = _CURSOR_RE.fullmatch(text)
            micros, row_id = int(match[2]), int(match[3])
            when = _EPOCH + timedelta(microseconds=micros)
            if row_id > 2**63 - 1:
                raise ValueError
        except (ValueError, TypeError, OverflowError, UnicodeError, binascii.Error):
            raise ValidationError({self.cursor_query_param: [
                "Invalid cursor: use the next or previous link of a page as it was given."]},
            ) from None
        return _Position(forward=match[1] == "n", time=when, id=row_id)

    def _link(self, row, *, forward: bool) -> str | None:
        if row is None:
            return None
        time = row.time if isinstance(row, _Position) else getattr(row, self.time_field)
        micros = (time - _EPOCH) // timedelta(microseconds=1)
        text = f"{'n' if forward else 'p'}{micros}.{row.id}"
        cursor = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
        url = self.request.build_absolute_uri()
        return replace_query_param(url, self.cursor_query_param, cursor)

    def get_paginated_response(self, data):
        return Response({
            "next": self._link(self.next, forward=True),
            "previous": self._link(self.previous, forward=False),
            "results": data,
        })

    get_paginated_response_schema = LimitOffsetPagination.get_paginated_response_schema

    def get_schema_operation_parameters(self, view):
        return [
            {"name": self.cursor_query_param, "required": False, "in": "query",
             "description": "Opaque position from a page's `next` or `previous` link.",
             "schema": {"type": "string"}},
            {"name": self.limit_query_param, "required": False, "in": "query",
             "description": _limit_description(self),
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_limit}},
        ]


@dataclass(frozen=True)
class _Position:
    forward: bool
    time: datetime
    id: int

    @property
    def key(self) -> tuple:
        return (self.time, self.id)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_CURSOR_RE = re.compile(r"([np])(-?[0-9]{1,19})\.([0-9]{1,19})")
