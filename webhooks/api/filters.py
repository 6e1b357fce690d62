import django_filters as filters

from core.filters import Bytes32Filter, StrictBooleanFilter
from webhooks.models import Delivery, DeliveryState, EventType, Subscription, Watch


class SubscriptionFilter(filters.FilterSet):
    enabled = StrictBooleanFilter()

    class Meta:
        model = Subscription
        fields = []


class DeliveryFilter(filters.FilterSet):
    state = filters.ChoiceFilter(choices=DeliveryState.choices)
    eventType = filters.ChoiceFilter(field_name="event__type", choices=EventType.choices)

    class Meta:
        model = Delivery
        fields = []


class WatchFilter(filters.FilterSet):
    documentHash = Bytes32Filter(field_name="document_hash")

    class Meta:
        model = Watch
        fields = []
