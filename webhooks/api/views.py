from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core.conditional import ConditionalMixin
from core.viewsets import CreatedLocationMixin, created_headers
from registry.models import KeyScope
from webhooks import serializers, services
from webhooks.api import filters
from webhooks.models import Delivery, Subscription, Watch


def _owned(queryset, request, field: str = "owner"):
    # Each key sees its own; an admin key sees all. Another key's record is a 404.
    holder = getattr(request, "auth", None)
    if holder is None:
        return queryset.none()
    return queryset if holder.scope == KeyScope.ADMIN else queryset.filter(**{field: holder.prefix})


class SubscriptionViewSet(ConditionalMixin, viewsets.ModelViewSet):
    """Webhook subscriptions: a URL that receives the chosen events, signed (Standard
    Webhooks)."""

    queryset = Subscription.objects.all()
    serializer_class = serializers.SubscriptionSerializer
    filterset_class = filters.SubscriptionFilter
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return _owned(Subscription.objects.all(), self.request)

    @extend_schema(responses={201: serializers.SubscriptionCreatedSerializer})
    def create(self, request):
        """Subscribe a URL; the answer carries its signing secret, shown this once."""
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        subscription, secret = services.subscription_create(holder=request.auth,
                                                            **body.validated_data)
        subscription.secret = secret
        return Response(serializers.SubscriptionCreatedSerializer(subscription).data,
                        status=status.HTTP_201_CREATED,
                        headers=created_headers("webhook-detail", pk=subscription.pk))

    def perform_update(self, serializer):
        services.subscription_update(serializer.instance, holder=self.request.auth,
                                     **serializer.validated_data)

    @extend_schema(request=serializers.RotateSecretSerializer,
                   responses=serializers.RotatedSecretSerializer)
    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request, pk=None):
        """A new signing secret, shown this once; the current one keeps signing beside it
        for `overlapSeconds` (default a day)."""
        subscription = self.get_object()
        body = serializers.RotateSecretSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        secret = services.subscription_rotate_secret(
            subscription, overlap_seconds=body.validated_data["overlap_seconds"])
        return Response(serializers.RotatedSecretSerializer({
            "secret": secret,
            "previous_secret_expires_at": subscription.previous_secret_expires_at}).data)


class DeliveryViewSet(ConditionalMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                      viewsets.GenericViewSet):
    """A subscription's deliveries (one per event), newest first, with their attempts."""

    queryset = Delivery.objects.all()
    serializer_class = serializers.DeliverySerializer
    filterset_class = filters.DeliveryFilter

    def get_queryset(self):
        subscriptions = _owned(Subscription.objects.all(), self.request)
        subscription = get_object_or_404(subscriptions, pk=self.kwargs["subscription_id"])
        return (Delivery.objects.filter(subscription=subscription)
                .select_related("event", "subscription").order_by("-event_id"))

    def get_serializer_class(self):
        return (serializers.DeliveryDetailSerializer if self.detail
                else serializers.DeliverySerializer)

    @extend_schema(request=None, responses={202: serializers.DeliveryDetailSerializer})
    @action(detail=True, methods=["post"])
    def redeliver(self, request, subscription_id=None, pk=None):
        """Send this delivery again, with the same webhook-id, before the subscription's
        other pending events."""
        delivery = services.delivery_redeliver(self.get_object())
        return Response(serializers.DeliveryDetailSerializer(delivery).data,
                        status=status.HTTP_202_ACCEPTED)


class WatchViewSet(CreatedLocationMixin, ConditionalMixin, mixins.CreateModelMixin,
                   mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin,
                   viewsets.GenericViewSet):
    """Document hashes this key watches: document.verified and document.revoked events about
    them go to its subscriptions (as about every document it bound)."""

    queryset = Watch.objects.all()
    serializer_class = serializers.WatchSerializer
    filterset_class = filters.WatchFilter

    def get_queryset(self):
        return _owned(Watch.objects.all(), self.request)

    def get_serializer_context(self):
        # The watching key, for the serializer's check of a duplicate.
        return {**super().get_serializer_context(), "owner": getattr(self.request.auth, "prefix", None)}

    def perform_create(self, serializer):
        serializer.save(owner=self.request.auth.prefix)
