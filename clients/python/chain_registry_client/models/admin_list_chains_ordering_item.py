from typing import Literal, cast

AdminListChainsOrderingItem = Literal[
    "-chainId",
    "-createdAt",
    "-name",
    "-shortName",
    "-updatedAt",
    "chainId",
    "createdAt",
    "name",
    "shortName",
    "updatedAt",
]

ADMIN_LIST_CHAINS_ORDERING_ITEM_VALUES: set[AdminListChainsOrderingItem] = {
    "-chainId",
    "-createdAt",
    "-name",
    "-shortName",
    "-updatedAt",
    "chainId",
    "createdAt",
    "name",
    "shortName",
    "updatedAt",
}


def check_admin_list_chains_ordering_item(value: str) -> AdminListChainsOrderingItem:
    if value in ADMIN_LIST_CHAINS_ORDERING_ITEM_VALUES:
        return cast(AdminListChainsOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_CHAINS_ORDERING_ITEM_VALUES!r}")
