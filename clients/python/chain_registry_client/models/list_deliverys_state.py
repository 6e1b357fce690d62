from typing import Literal, cast

ListDeliverysState = Literal["delivered", "failed", "pending"]

LIST_DELIVERYS_STATE_VALUES: set[ListDeliverysState] = {
    "delivered",
    "failed",
    "pending",
}


def check_list_deliverys_state(value: str) -> ListDeliverysState:
    if value in LIST_DELIVERYS_STATE_VALUES:
        return cast(ListDeliverysState, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERYS_STATE_VALUES!r}")
