"""The webhooks' wire shapes and their rules: the API's (webhooks/api/) and the Django admin's
(webhooks/admin.py), outside api/ so that nothing but the HTTP layer imports api/."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.fields import Bytes32Field, ChainIdField
from core.serializers import StrictModelSerializer, StrictSerializer
from webhooks.models import Delivery, DeliveryAttempt, EventType, Subscription, Watch


class SubscriptionSerializer(StrictModelSerializer):
    event_types = serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices), min_length=1,
        max_length=len(EventType.choices), help_text="The event types to receive.")
    chain_id = ChainIdField(required=False, allow_null=True,
                            help_text="Only events of this chain.")
    workflow_id = serializers.UUIDField(required=False, allow_null=True,
                                        help_text="Only this workflow's events.")
    document_hash = Bytes32Field(required=False, allow_null=True,
                                 help_text="Only events of this document hash (for document "
                                 "events it also counts as a watch).")
    url = serializers.URLField(max_length=2000, help_text="https (http and private addresses "
                               "only when the service allows them: WEBHOOKS_ALLOW_PRIVATE).")

    class Meta:
        model = Subscription
        fields = ["id", "url", "event_types", "chain_id", "workflow_id", "document_hash",
                  "description", "enabled", "disabled_at", "disabled_reason", "owner",
                  "previous_secret_expires_at", "created_at", "updated_at"]
        read_only_fields = ["id", "disabled_at", "disabled_reason", "owner",
                            "previous_secret_expires_at", "created_at", "updated_at"]

    def validate_event_types(self, value):
        if len(set(value)) != len(value):
            raise serializers.ValidationError("Each event type once.", code="duplicate")
        return value

    def validate_document_hash(self, value):
        return value or ""  # stored as blank: no filter

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["document_hash"] = data["document_hash"] or None
        return data


class SubscriptionCreatedSerializer(SubscriptionSerializer):
    secret = serializers.CharField(read_only=True, help_text="The signing secret: shown this "
                                   "once, never again (rotate it to get a new one).")

    class Meta(SubscriptionSerializer.Meta):
        fields = [*SubscriptionSerializer.Meta.fields, "secret"]


class RotateSecretSerializer(StrictSerializer):
    overlap_seconds = serializers.IntegerField(
        required=False, default=86400, min_value=0, max_value=7 * 86400,
        help_text="How long the current secret keeps signing beside the new one (0: not).")


class RotatedSecretSerializer(serializers.Serializer):
    secret = serializers.CharField(help_text="The new signing secret, shown this once.")
    previous_secret_expires_at = serializers.DateTimeField(allow_null=True)


class DeliveryAttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = DeliveryAttempt
        fields = ["attempted_at", "status_code", "latency_ms", "ok", "error", "response_excerpt"]
        read_only_fields = fields


class DeliverySerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(read_only=True)
    webhook_id = serializers.CharField(read_only=True, help_text="The `webhook-id` header.")
    event_id = serializers.IntegerField(read_only=True)
    event_type = serializers.CharField(source="event.type", read_only=True)
    occurred_at = serializers.DateTimeField(source="event.occurred_at", read_only=True)
    last_error = serializers.SerializerMethodField()

    class Meta:
        model = Delivery
        fields = ["id", "webhook_id", "event_id", "event_type", "occurred_at", "state",
                  "attempts", "next_attempt_at", "delivered_at", "last_attempt_at",
                  "last_status_code", "last_error", "created_at"]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_last_error(self, delivery) -> str | None:
        return delivery.last_error or None


class DeliveryDetailSerializer(DeliverySerializer):
    payload = serializers.SerializerMethodField()
    recent_attempts = serializers.SerializerMethodField()

    class Meta(DeliverySerializer.Meta):
        fields = [*DeliverySerializer.Meta.fields, "payload", "recent_attempts"]
        read_only_fields = fields

    @extend_schema_field(serializers.DictField())
    def get_payload(self, delivery) -> dict:
        return delivery.event.payload()

    @extend_schema_field(DeliveryAttemptSerializer(many=True))
    def get_recent_attempts(self, delivery) -> list:
        attempts = delivery.attempts_made.all()[:20]
        return DeliveryAttemptSerializer(attempts, many=True).data


class WatchSerializer(StrictModelSerializer):
    document_hash = Bytes32Field(help_text="Send document.verified and document.revoked "
                                 "events about this document hash to this key's subscriptions.")

    class Meta:
        model = Watch
        fields = ["id", "document_hash", "created_at"]
        read_only_fields = ["id", "created_at"]

    def validate(self, attrs):
        # The owner is the key that watches (the view's context), or the stored one.
        owner = self.context.get("owner") or getattr(self.instance, "owner", None)
        if owner:
            self.refuse_duplicate({"owner": owner, **attrs}, "document_hash",
                                  "This key watches this document hash.", "owner")
        return attrs
