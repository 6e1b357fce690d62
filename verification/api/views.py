from datetime import UTC

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets

from core.fast_lane import FastLaneMixin
from verification.api import serializers
from verification.metrics import count_verify
from verification.services import verify_document


def _wire(result) -> dict:
    """The answer as VerifyResponseSerializer documents it, built directly: the serializer
    would cost more than the query (a deep copy of its nine fields per request)."""
    data = result.as_dict()
    if data["timestamp"] is not None:
        data["timestamp"] = data["timestamp"].astimezone(UTC).strftime(
            settings.REST_FRAMEWORK["DATETIME_FORMAT"])
    return data


class VerifyViewSet(FastLaneMixin, viewsets.ViewSet):
    """Document verification."""

    fast_lane = {"create": (serializers.VerifyRequestSerializer, "answer")}

    @extend_schema(
        request=serializers.VerifyRequestSerializer,
        responses={200: serializers.VerifyResponseSerializer},
        description="Is this document hash bound by an attestation on an active chain, not "
        "revoked, not expired, made by a trusted attester of that chain and with at least the "
        "chain's confirmations? The earliest such attestation answers. No match is a 200 with "
        "`verified: false` and nulls. `chainId` narrows the search to one chain; `live: true` "
        "re-reads the attestation from its chain first (503 when no RPC endpoint answers).",
    )
    def create(self, request):
        return self.lane_response(request)

    def answer(self, body: dict, holder) -> dict:
        data = _wire(verify_document(**body))
        count_verify("verified" if data["verified"] else "not_verified")
        return data
