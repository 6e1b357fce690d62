import django_filters as filters

from bindings.models import Workflow, WorkflowState
from core.filters import Bytes32Filter, ChainIdInFilter, ChoiceInFilter

# No `ordering`: the cursor pagination keeps one order (newest first), which its cursors
# encode (bindings/api/pagination.py).


class WorkflowFilter(filters.FilterSet):
    state = ChoiceInFilter(choices=WorkflowState.choices)
    chainId = ChainIdInFilter()
    documentHash = Bytes32Filter(field_name="document_hash")

    class Meta:
        model = Workflow
        fields = []
