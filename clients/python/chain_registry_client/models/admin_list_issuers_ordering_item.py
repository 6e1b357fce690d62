from typing import Literal, cast

AdminListIssuersOrderingItem = Literal[
    "-checkedAt", "-createdAt", "-domain", "-name", "checkedAt", "createdAt", "domain", "name"
]

ADMIN_LIST_ISSUERS_ORDERING_ITEM_VALUES: set[AdminListIssuersOrderingItem] = {
    "-checkedAt",
    "-createdAt",
    "-domain",
    "-name",
    "checkedAt",
    "createdAt",
    "domain",
    "name",
}


def check_admin_list_issuers_ordering_item(value: str) -> AdminListIssuersOrderingItem:
    if value in ADMIN_LIST_ISSUERS_ORDERING_ITEM_VALUES:
        return cast(AdminListIssuersOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_ISSUERS_ORDERING_ITEM_VALUES!r}")
