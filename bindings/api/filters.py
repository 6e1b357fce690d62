import django_filters as filters

from bindings.models import Workflow, WorkflowState
from core.filters import Bytes32Filter


class WorkflowFilter(filters.FilterSet):
    state = filters.ChoiceFilter(choices=WorkflowState.choices)
    chainId = filters.NumberFilter(field_name="chain_id")
    documentHash = Bytes32Filter(field_name="document_hash")

    class Meta:
        model = Workflow
        fields = []
