import django_filters as filters
from rest_framework.exceptions import ValidationError

from bindings.models import Workflow, WorkflowState
from core.validators import InvalidHex, normalize_bytes32


class Bytes32Filter(filters.CharFilter):
    """A 32-byte hex value in any case (stored lowercase); anything else is a 400."""

    def filter(self, qs, value):
        if not value:
            return qs
        try:
            value = normalize_bytes32(value)
        except InvalidHex as exc:
            raise ValidationError({self.field_name: [str(exc)]}) from None
        return super().filter(qs, value)


class WorkflowFilter(filters.FilterSet):
    state = filters.ChoiceFilter(choices=WorkflowState.choices)
    chainId = filters.NumberFilter(field_name="chain_id")
    documentHash = Bytes32Filter(field_name="document_hash")

    class Meta:
        model = Workflow
        fields = []
