from typing import Literal, cast

AdminListContractVersionsOrderingItem = Literal["-createdAt", "-id", "createdAt", "id"]

ADMIN_LIST_CONTRACT_VERSIONS_ORDERING_ITEM_VALUES: set[AdminListContractVersionsOrderingItem] = {
    "-createdAt",
    "-id",
    "createdAt",
    "id",
}


def check_admin_list_contract_versions_ordering_item(value: str) -> AdminListContractVersionsOrderingItem:
    if value in ADMIN_LIST_CONTRACT_VERSIONS_ORDERING_ITEM_VALUES:
        return cast(AdminListContractVersionsOrderingItem, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_CONTRACT_VERSIONS_ORDERING_ITEM_VALUES!r}"
    )
