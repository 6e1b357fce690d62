from typing import Literal, cast

ListDeliveriesEventType = Literal[
    "chain.resumed",
    "chain.stalled",
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "issuer.identity_lapsed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
]

LIST_DELIVERIES_EVENT_TYPE_VALUES: set[ListDeliveriesEventType] = {
    "chain.resumed",
    "chain.stalled",
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "issuer.identity_lapsed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
}


def check_list_deliveries_event_type(value: str) -> ListDeliveriesEventType:
    if value in LIST_DELIVERIES_EVENT_TYPE_VALUES:
        return cast(ListDeliveriesEventType, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERIES_EVENT_TYPE_VALUES!r}")
