from typing import Literal, cast

AdminListChainsStatusItem = Literal["active", "inactive"]

ADMIN_LIST_CHAINS_STATUS_ITEM_VALUES: set[AdminListChainsStatusItem] = {
    "active",
    "inactive",
}


def check_admin_list_chains_status_item(value: str) -> AdminListChainsStatusItem:
    if value in ADMIN_LIST_CHAINS_STATUS_ITEM_VALUES:
        return cast(AdminListChainsStatusItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_CHAINS_STATUS_ITEM_VALUES!r}")
