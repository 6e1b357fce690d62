from typing import Literal, cast

AdminListProviderHealthReportsStatusItem = Literal["degraded", "down", "healthy", "maintenance"]

ADMIN_LIST_PROVIDER_HEALTH_REPORTS_STATUS_ITEM_VALUES: set[AdminListProviderHealthReportsStatusItem] = {
    "degraded",
    "down",
    "healthy",
    "maintenance",
}


def check_admin_list_provider_health_reports_status_item(value: str) -> AdminListProviderHealthReportsStatusItem:
    if value in ADMIN_LIST_PROVIDER_HEALTH_REPORTS_STATUS_ITEM_VALUES:
        return cast(AdminListProviderHealthReportsStatusItem, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_PROVIDER_HEALTH_REPORTS_STATUS_ITEM_VALUES!r}"
    )
