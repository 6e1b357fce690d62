import django_filters as filters

from core.filters import ChoiceInFilter, OrderingFilter
from issuers.models import Identity, Issuer


class IssuerFilter(filters.FilterSet):
    identity = ChoiceInFilter(choices=Identity.choices)
    domain = filters.CharFilter(lookup_expr="iexact")
    ordering = OrderingFilter(fields=(("name", "name"), ("domain", "domain"),
                                      ("checked_at", "checkedAt"), ("created_at", "createdAt")))

    class Meta:
        model = Issuer
        fields = []
