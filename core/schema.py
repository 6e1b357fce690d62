"""OpenAPI: every operation documents its problem responses."""

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from rest_framework import serializers

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
    "400": "Invalid input; `errors` names each field.",
    "401": "Missing, unknown, expired or revoked key.",
    "403": "The key's scope does not allow this.",
    "404": "No such resource.",
    "409": "Conflict: a duplicate unique value, or the resource is still referenced.",
    "413": "The request body is too large.",
    "411": "The body was sent chunked, without a Content-Length.",
    "415": "The request body is not JSON (or its charset is not a text encoding).",
    "429": "Rate limited: the key made too many requests; retry after `Retry-After` seconds.",
}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"},
                                "description": "Seconds until the key may try again."}}


class AutoSchema(BaseAutoSchema):
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
        codes = ["401", "403", "429"] if self.get_auth() else []
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
        for code in codes:
            responses.setdefault(code, {"description": ERROR_DESCRIPTIONS[code], **problem})
        if "429" in codes:
            responses["429"] = {**responses["429"], "headers": RETRY_AFTER}
        return responses
