from typing import Literal, cast

AdminListExecutorsStatusItem = Literal[
    "blocked_by_fees", "deregistered", "draining", "healthy", "low_funds", "offline", "signer_error", "stale"
]

ADMIN_LIST_EXECUTORS_STATUS_ITEM_VALUES: set[AdminListExecutorsStatusItem] = {
    "blocked_by_fees",
    "deregistered",
    "draining",
    "healthy",
    "low_funds",
    "offline",
    "signer_error",
    "stale",
}


def check_admin_list_executors_status_item(value: str) -> AdminListExecutorsStatusItem:
    if value in ADMIN_LIST_EXECUTORS_STATUS_ITEM_VALUES:
        return cast(AdminListExecutorsStatusItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_EXECUTORS_STATUS_ITEM_VALUES!r}")
