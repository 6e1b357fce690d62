from typing import Literal, cast

ListDeliverysEventType = Literal[
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
]

LIST_DELIVERYS_EVENT_TYPE_VALUES: set[ListDeliverysEventType] = {
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
}


def check_list_deliverys_event_type(value: str) -> ListDeliverysEventType:
    if value in LIST_DELIVERYS_EVENT_TYPE_VALUES:
        return cast(ListDeliverysEventType, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERYS_EVENT_TYPE_VALUES!r}")
