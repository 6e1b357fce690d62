from typing import Literal, cast

AdminListDeploymentsOrderingItem = Literal[
    "-chainId", "-createdAt", "-id", "-startBlock", "chainId", "createdAt", "id", "startBlock"
]

ADMIN_LIST_DEPLOYMENTS_ORDERING_ITEM_VALUES: set[AdminListDeploymentsOrderingItem] = {
    "-chainId",
    "-createdAt",
    "-id",
    "-startBlock",
    "chainId",
    "createdAt",
    "id",
    "startBlock",
}


def check_admin_list_deployments_ordering_item(value: str) -> AdminListDeploymentsOrderingItem:
    if value in ADMIN_LIST_DEPLOYMENTS_ORDERING_ITEM_VALUES:
        return cast(AdminListDeploymentsOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_DEPLOYMENTS_ORDERING_ITEM_VALUES!r}")
