"""Caching and conditional requests (RFC 9110 section 13, RFC 9111) of one resource's views.

The ETag is a strong validator: a hash of the representation the item read answers (the
serializer's data). It changes whenever anything a client sees changes, derived fields
included (an RPC endpoint's probe figures, an executor's lease): If-Match then refuses a
write based on a stale read, as it should. A write with If-Match locks the row
(`select_for_update`) and compares the tag of its current representation inside the same
transaction: of two writers holding one tag, the first wins; the second waits for the lock,
then sees the new representation and gets 412.
"""

import hashlib
import json

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.http import parse_etags, quote_etag
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from core.errors import PreconditionFailed

SAFE_METHODS = ("GET", "HEAD")
# The actions whose target is the resource itself: their 200 answers carry its ETag.
TAGGED_ACTIONS = ("retrieve", "update", "partial_update")


def representation_etag(data) -> str:
    """A strong ETag of a representation: the same data, the same tag, in any process."""
    text = json.dumps(data, cls=JSONEncoder, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return quote_etag(hashlib.sha256(text.encode()).hexdigest()[:32])


class ConditionalMixin:
    """For a GenericViewSet with item reads: `ETag` on them, `If-None-Match` answered 304,
    `If-Match` honoured on every write to an item (412 when it does not match; without it,
    writes go as before), and `Cache-Control` on successful reads: `private, max-age=` the
    view's `cache_max_age` when set, else `private, no-cache` on a tagged item (keep it, but
    revalidate). Other answers keep the keyed default (config.middleware)."""

    cache_max_age: int | None = None

    def dispatch(self, request, *args, **kwargs):
        if (request.method in SAFE_METHODS or "HTTP_IF_MATCH" not in request.META
                or not getattr(self, "detail", False)):  # a create has no item to compare
            return super().dispatch(request, *args, **kwargs)
        # The compare (get_object) and the write in one transaction; a refused request
        # writes nothing.
        with transaction.atomic():
            response = super().dispatch(request, *args, **kwargs)
            if response.status_code >= 400:
                transaction.set_rollback(True)
            return response

    def get_object(self):
        if self.request.method in SAFE_METHODS or "If-Match" not in self.request.headers:
            return super().get_object()
        self._lock_row()
        instance = super().get_object()
        tags = parse_etags(self.request.headers["If-Match"])
        if "*" not in tags and self.current_etag(instance) not in tags:
            raise PreconditionFailed()
        return instance

    def current_etag(self, instance) -> str:
        return representation_etag(self.get_serializer(instance).data)

    def _lock_row(self) -> None:
        """Lock the row the URL names, on the plain table: the view's queryset may carry
        aggregates, which FOR UPDATE does not take. Held until the transaction ends, so the
        representation read next cannot change before the write."""
        model = self.get_queryset().model
        kwarg = self.lookup_url_kwarg or self.lookup_field
        try:
            rows = model._default_manager.select_for_update().filter(
                **{self.lookup_field: self.kwargs[kwarg]})
            list(rows.values_list("pk", flat=True))
        except (TypeError, ValueError, ValidationError):
            pass  # a malformed id (as get_object_or_404 catches them): get_object answers 404

    def finalize_response(self, request, response, *args, **kwargs):
        if request.method in SAFE_METHODS + ("PATCH", "PUT") and response.status_code == 200:
            if getattr(self, "action", None) in TAGGED_ACTIONS and isinstance(response.data, dict):
                response = self._tagged(request, response)
            if request.method in SAFE_METHODS and self.cache_max_age is not None:
                response["Cache-Control"] = f"private, max-age={self.cache_max_age}"
        return super().finalize_response(request, response, *args, **kwargs)

    def _tagged(self, request, response):
        etag = representation_etag(response.data)
        if request.method in SAFE_METHODS:
            if _none_match_fails(request, etag):
                response = Response(status=304)
            response["Cache-Control"] = "private, no-cache"
        response["ETag"] = etag
        return response


def _none_match_fails(request, etag: str) -> bool:
    """If-None-Match names this representation (a weak comparison, as RFC 9110 asks)."""
    header = request.headers.get("If-None-Match")
    if header is None:
        return False
    tags = parse_etags(header)
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)
