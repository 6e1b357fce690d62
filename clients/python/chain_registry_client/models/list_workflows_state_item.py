from typing import Literal, cast

ListWorkflowsStateItem = Literal["confirmed", "dispatched", "expired", "failed", "queued", "received", "submitted"]

LIST_WORKFLOWS_STATE_ITEM_VALUES: set[ListWorkflowsStateItem] = {
    "confirmed",
    "dispatched",
    "expired",
    "failed",
    "queued",
    "received",
    "submitted",
}


def check_list_workflows_state_item(value: str) -> ListWorkflowsStateItem:
    if value in LIST_WORKFLOWS_STATE_ITEM_VALUES:
        return cast(ListWorkflowsStateItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_WORKFLOWS_STATE_ITEM_VALUES!r}")
