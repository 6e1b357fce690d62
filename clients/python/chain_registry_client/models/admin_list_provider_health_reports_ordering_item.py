from typing import Literal, cast

AdminListProviderHealthReportsOrderingItem = Literal["-createdAt", "-id", "createdAt", "id"]

ADMIN_LIST_PROVIDER_HEALTH_REPORTS_ORDERING_ITEM_VALUES: set[AdminListProviderHealthReportsOrderingItem] = {
    "-createdAt",
    "-id",
    "createdAt",
    "id",
}


def check_admin_list_provider_health_reports_ordering_item(value: str) -> AdminListProviderHealthReportsOrderingItem:
    if value in ADMIN_LIST_PROVIDER_HEALTH_REPORTS_ORDERING_ITEM_VALUES:
        return cast(AdminListProviderHealthReportsOrderingItem, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_PROVIDER_HEALTH_REPORTS_ORDERING_ITEM_VALUES!r}"
    )
