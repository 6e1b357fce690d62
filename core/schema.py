"""OpenAPI: every operation documents its problem responses and the HTTP headers it
answers (docs/api.md, "HTTP conventions")."""

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.plumbing import get_view_model
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from core import schema_names
from core.conditional import TAGGED_ACTIONS, ConditionalMixin
from core.problems import PROBLEM_CONTENT_TYPE
from core.serializers import StrictMixin


class ProblemErrorSerializer(serializers.Serializer):
    attr = serializers.CharField(allow_null=True, help_text="The field, dotted for nested ones.")
    code = serializers.CharField()
    detail = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    """An RFC 9457 problem document."""

    type = serializers.CharField(help_text="URN of the problem type.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="Machine-readable error code.")
    errors = ProblemErrorSerializer(many=True, required=False)


ERROR_DESCRIPTIONS = {
    "400": "Invalid input; `errors` names each field (the first ten). A body beyond the "
           "endpoint's bounds (object keys, array items, depth: docs/api.md) is refused before "
           "it is read further (`too_many_keys`, `too_many_items`, `parse_error`).",
    "401": "Missing, unknown, expired or revoked key.",
    "403": "The key's scope does not allow this.",
    "404": "No such resource.",
    "409": "Conflict: a duplicate unique value, or the resource is still referenced.",
    "412": "Precondition failed (`precondition_failed`): the resource has changed since the "
           "ETag given in `If-Match`; read it again.",
    "413": "The request body is too large.",
    "411": "The body was sent chunked, without a Content-Length.",
    "415": "The request body is not JSON (or its charset is not a text encoding).",
    "429": "Rate limited: the key made too many requests; retry after `Retry-After` seconds.",
    "503": "Service unavailable (`service_unavailable`): the database (or, for a live read, "
           "every RPC endpoint of the chain) does not answer; retry after `Retry-After` "
           "seconds.",
}
LIST_BAD_REQUEST = ("Invalid input: a bad or unknown query parameter (`unknown_parameter`); "
                    "`errors` names each one.")
NOT_MODIFIED = "Not modified: the representation still has the ETag given in `If-None-Match`."


def _header(description: str, type_: str = "string") -> dict:
    return {"schema": {"type": type_}, "description": description}


RETRY_AFTER = {"Retry-After": _header("Seconds until the request may be tried again.",
                                      "integer")}
REQUEST_ID = {"X-Request-ID": _header("The request's id, as sent by the client when it sent a "
                                      "sane one, else a new one; log lines carry it too.")}
RATE_LIMIT = {
    "RateLimit-Limit": _header("Requests the key may make in the current window.", "integer"),
    "RateLimit-Remaining": _header("Requests left to the key in the current window.", "integer"),
    "RateLimit-Reset": _header("Seconds until the window, and the count, start again.",
                               "integer"),
}
LOCATION = {"Location": _header("The absolute path of the created resource.")}
ETAG = {"ETag": _header("A strong validator of this representation; send it back in "
                        "`If-Match` to change the resource, or `If-None-Match` to read it.")}
CACHE_CONTROL = {
    "no-store": "`private, no-store`: an answer to a key is not kept.",
    "no-cache": "`private, no-cache`: a client may keep it, and revalidates it with "
                "`If-None-Match` before use.",
    "max-age": "`private, max-age={}`: a client may keep it that many seconds.",
}
IF_MATCH = OpenApiParameter(
    "If-Match", str, OpenApiParameter.HEADER, required=False,
    description="The ETag of the resource as last read: the change is made only if it still "
    "has it (else 412). Without the header, the change is made whatever the resource's state.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, required=False,
    description="ETags the client holds: 304 without a body when the representation has one.",
)


class AutoSchema(BaseAutoSchema):
    def get_tags(self):
        return [schema_names.tag(self.path)]

    def get_operation_id(self):
        return self._names().operation_id

    def get_summary(self):
        # An id given by hand (extend_schema) reads as its own summary.
        names = self._names()
        operation_id = self.get_operation_id()
        return names.summary if operation_id == names.operation_id else schema_names.humanize(
            operation_id)

    def _names(self) -> schema_names.Names:
        action = getattr(self.view, "action", None) or self.method_mapping[self.method.lower()]
        many = self.method == "GET" and self._is_list_view()
        return schema_names.names(path=self.path, action="list" if many else action,
                                  model=get_view_model(self.view, emit_warnings=False), many=many)

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False):
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        # COMPONENT_SPLIT_REQUEST appends "Request": VerifyRequest, not VerifyRequestRequest.
        return name.removesuffix("Request") if name.endswith("RequestRequest") else name

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self._conditional_write():
            parameters.append(IF_MATCH)
        elif self._tagged_read():
            parameters.append(IF_NONE_MATCH)
        return parameters

    def _tagged_read(self) -> bool:
        return (isinstance(self.view, ConditionalMixin) and self.method == "GET"
                and getattr(self.view, "action", None) == "retrieve")

    def _tagged_answer(self) -> bool:
        """A 200 of an item read or update: it carries the item's ETag."""
        return (isinstance(self.view, ConditionalMixin)
                and getattr(self.view, "action", None) in TAGGED_ACTIONS)

    def _conditional_write(self) -> bool:
        return (isinstance(self.view, ConditionalMixin) and getattr(self.view, "detail", False)
                and self.method in ("POST", "PUT", "PATCH", "DELETE"))

    def _map_serializer(self, serializer, direction, bypass_extensions=False):
        mapped = super()._map_serializer(serializer, direction, bypass_extensions)
        # A strict serializer refuses unknown fields (400): the schema says so, or a client
        # (and schemathesis) reads extra properties as allowed.
        if (direction == "request" and isinstance(serializer, StrictMixin)
                and mapped.get("type") == "object"):
            mapped["additionalProperties"] = False
        return mapped

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        problem = {
            "content": {PROBLEM_CONTENT_TYPE: {"schema": self.resolve_serializer(
                ProblemSerializer, "response").ref}},
        }
        keyed = bool(self.get_auth())
        codes = ["401", "403", "429"] if keyed else []
        method = self.method.upper()
        action = getattr(self.view, "action", None)
        # Also where a view checks its path parameter's format (`bad_request_actions`).
        if (method in ("POST", "PATCH", "PUT") or self._is_list_view()
                or action in getattr(self.view, "bad_request_actions", ())):
            codes.append("400")
        if "{" in self.path:
            codes.append("404")
        # A conflict is possible where a record is written (a duplicate, a reference) and
        # in the actions a view names in `conflict_actions`.
        if action in ("create", "update", "partial_update", "destroy") or action in getattr(
            self.view, "conflict_actions", ()
        ):
            codes.append("409")
        if method in ("POST", "PATCH", "PUT"):
            codes += ["411", "413", "415"]
        if self._conditional_write():
            codes.append("412")
        if keyed:  # the key is looked up in the database (and the cache) first
            codes.append("503")
        descriptions = dict(ERROR_DESCRIPTIONS)
        if self._is_list_view():
            descriptions["400"] = LIST_BAD_REQUEST
        for code in codes:
            responses.setdefault(code, {"description": descriptions[code], **problem})
        if self._tagged_read():
            responses["304"] = {"description": NOT_MODIFIED}
        for code, response in responses.items():
            headers = self._headers(code)
            if headers:
                response["headers"] = {**response.get("headers", {}), **headers}
        return responses

    def _headers(self, code: str) -> dict:
        """The headers answered with `code` (config.middleware, core.conditional, ...)."""
        status, keyed = int(code), bool(self.get_auth())
        headers = dict(REQUEST_ID)  # config.middleware: on every answer
        # Counted by the throttle: every keyed answer past the key and scope checks.
        if keyed and status not in (401, 403, 411, 413):
            headers.update(RATE_LIMIT)
        if status in (429, 503):
            headers.update(RETRY_AFTER)
        if status == 201:
            headers.update(LOCATION)
        if self._tagged_answer() and status in (200, 304):
            headers.update(ETAG)
        if keyed and (200 <= status < 300 or status == 304):
            headers["Cache-Control"] = _header(self._cache_control(status))
        return headers

    def _cache_control(self, status: int) -> str:
        max_age = getattr(self.view, "cache_max_age", None)
        if self.method == "GET" and max_age is not None and status in (200, 304):
            return CACHE_CONTROL["max-age"].format(max_age)
        if self._tagged_read():
            return CACHE_CONTROL["no-cache"]
        return CACHE_CONTROL["no-store"]
