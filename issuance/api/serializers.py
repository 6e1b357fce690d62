"""The issuer pages' JSON: what issue.js sends and reads (not part of the keyed API)."""

from django.urls import reverse
from rest_framework import serializers

from bindings.workflows import BATCH_LIMIT
from core.fields import Bytes32Field, ChainIdField
from core.serializers import StrictSerializer
from issuance.models import RunDocument

NAME_LENGTH = RunDocument._meta.get_field("name").max_length


class RunCreateSerializer(StrictSerializer):
    chain_id = ChainIdField()
    schema_id = Bytes32Field(required=False, allow_null=True,
                             help_text="Defaults to the chain's document schema.")


class _DocumentIn(StrictSerializer):
    name = serializers.CharField(max_length=NAME_LENGTH, trim_whitespace=False)
    document_hash = Bytes32Field()


class _Skipped(StrictSerializer):
    name = serializers.CharField(max_length=NAME_LENGTH, trim_whitespace=False)
    reason = serializers.CharField(max_length=500)


class RunDocumentsSerializer(StrictSerializer):
    documents = _DocumentIn(many=True, max_length=BATCH_LIMIT, required=False, default=list)
    skipped = _Skipped(many=True, max_length=BATCH_LIMIT, required=False, default=list)


class RunSerializer(serializers.Serializer):
    run_id = serializers.UUIDField(source="pk")
    chain_id = serializers.IntegerField()
    schema_id = serializers.CharField(source="schema_uid")
    url = serializers.SerializerMethodField()

    def get_url(self, run) -> str:
        return reverse("issue-run", args=[run.pk])


class RunDocumentSerializer(serializers.Serializer):
    name = serializers.CharField()
    document_hash = serializers.CharField()
    workflow_id = serializers.UUIDField(allow_null=True)
    state = serializers.CharField()
    already_bound = serializers.BooleanField()
    error = serializers.CharField()
