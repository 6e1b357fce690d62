from typing import Literal, cast

AdminListDeploymentsKindItem = Literal["eas", "other", "schema_registry"]

ADMIN_LIST_DEPLOYMENTS_KIND_ITEM_VALUES: set[AdminListDeploymentsKindItem] = {
    "eas",
    "other",
    "schema_registry",
}


def check_admin_list_deployments_kind_item(value: str) -> AdminListDeploymentsKindItem:
    if value in ADMIN_LIST_DEPLOYMENTS_KIND_ITEM_VALUES:
        return cast(AdminListDeploymentsKindItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_DEPLOYMENTS_KIND_ITEM_VALUES!r}")
