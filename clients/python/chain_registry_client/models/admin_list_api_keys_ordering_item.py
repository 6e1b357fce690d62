from typing import Literal, cast

AdminListApiKeysOrderingItem = Literal["-createdAt", "-name", "createdAt", "name"]

ADMIN_LIST_API_KEYS_ORDERING_ITEM_VALUES: set[AdminListApiKeysOrderingItem] = {
    "-createdAt",
    "-name",
    "createdAt",
    "name",
}


def check_admin_list_api_keys_ordering_item(value: str) -> AdminListApiKeysOrderingItem:
    if value in ADMIN_LIST_API_KEYS_ORDERING_ITEM_VALUES:
        return cast(AdminListApiKeysOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_API_KEYS_ORDERING_ITEM_VALUES!r}")
