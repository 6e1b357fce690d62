import django_filters as filters

from registry.api.filters import StrictBooleanFilter
from registry.models import Chain


class PublicChainFilter(filters.FilterSet):
    isTestnet = StrictBooleanFilter(field_name="is_testnet")
    shortName = filters.CharFilter(field_name="short_name")

    class Meta:
        model = Chain
        fields = []
