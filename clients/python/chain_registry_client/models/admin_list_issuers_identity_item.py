from typing import Literal, cast

AdminListIssuersIdentityItem = Literal["lapsed", "proven", "unproven"]

ADMIN_LIST_ISSUERS_IDENTITY_ITEM_VALUES: set[AdminListIssuersIdentityItem] = {
    "lapsed",
    "proven",
    "unproven",
}


def check_admin_list_issuers_identity_item(value: str) -> AdminListIssuersIdentityItem:
    if value in ADMIN_LIST_ISSUERS_IDENTITY_ITEM_VALUES:
        return cast(AdminListIssuersIdentityItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_ISSUERS_IDENTITY_ITEM_VALUES!r}")
