from typing import Literal, cast

AdminListApiKeysScopeItem = Literal["admin", "api", "executor"]

ADMIN_LIST_API_KEYS_SCOPE_ITEM_VALUES: set[AdminListApiKeysScopeItem] = {
    "admin",
    "api",
    "executor",
}


def check_admin_list_api_keys_scope_item(value: str) -> AdminListApiKeysScopeItem:
    if value in ADMIN_LIST_API_KEYS_SCOPE_ITEM_VALUES:
        return cast(AdminListApiKeysScopeItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_API_KEYS_SCOPE_ITEM_VALUES!r}")
