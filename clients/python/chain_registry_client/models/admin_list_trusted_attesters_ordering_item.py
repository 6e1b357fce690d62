from typing import Literal, cast

AdminListTrustedAttestersOrderingItem = Literal["-chainId", "-createdAt", "-id", "chainId", "createdAt", "id"]

ADMIN_LIST_TRUSTED_ATTESTERS_ORDERING_ITEM_VALUES: set[AdminListTrustedAttestersOrderingItem] = {
    "-chainId",
    "-createdAt",
    "-id",
    "chainId",
    "createdAt",
    "id",
}


def check_admin_list_trusted_attesters_ordering_item(value: str) -> AdminListTrustedAttestersOrderingItem:
    if value in ADMIN_LIST_TRUSTED_ATTESTERS_ORDERING_ITEM_VALUES:
        return cast(AdminListTrustedAttestersOrderingItem, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_TRUSTED_ATTESTERS_ORDERING_ITEM_VALUES!r}"
    )
