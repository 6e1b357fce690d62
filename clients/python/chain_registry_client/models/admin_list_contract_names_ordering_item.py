from typing import Literal, cast

AdminListContractNamesOrderingItem = Literal["-displayName", "-name", "displayName", "name"]

ADMIN_LIST_CONTRACT_NAMES_ORDERING_ITEM_VALUES: set[AdminListContractNamesOrderingItem] = {
    "-displayName",
    "-name",
    "displayName",
    "name",
}


def check_admin_list_contract_names_ordering_item(value: str) -> AdminListContractNamesOrderingItem:
    if value in ADMIN_LIST_CONTRACT_NAMES_ORDERING_ITEM_VALUES:
        return cast(AdminListContractNamesOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_CONTRACT_NAMES_ORDERING_ITEM_VALUES!r}")
