from typing import Literal, cast

AdminListExecutorsOrderingItem = Literal[
    "-chainId",
    "-lastHeartbeatAt",
    "-registeredAt",
    "-statusChangedAt",
    "chainId",
    "lastHeartbeatAt",
    "registeredAt",
    "statusChangedAt",
]

ADMIN_LIST_EXECUTORS_ORDERING_ITEM_VALUES: set[AdminListExecutorsOrderingItem] = {
    "-chainId",
    "-lastHeartbeatAt",
    "-registeredAt",
    "-statusChangedAt",
    "chainId",
    "lastHeartbeatAt",
    "registeredAt",
    "statusChangedAt",
}


def check_admin_list_executors_ordering_item(value: str) -> AdminListExecutorsOrderingItem:
    if value in ADMIN_LIST_EXECUTORS_ORDERING_ITEM_VALUES:
        return cast(AdminListExecutorsOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_EXECUTORS_ORDERING_ITEM_VALUES!r}")
