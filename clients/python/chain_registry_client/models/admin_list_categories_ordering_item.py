from typing import Literal, cast

AdminListCategoriesOrderingItem = Literal["-name", "-slug", "name", "slug"]

ADMIN_LIST_CATEGORIES_ORDERING_ITEM_VALUES: set[AdminListCategoriesOrderingItem] = {
    "-name",
    "-slug",
    "name",
    "slug",
}


def check_admin_list_categories_ordering_item(value: str) -> AdminListCategoriesOrderingItem:
    if value in ADMIN_LIST_CATEGORIES_ORDERING_ITEM_VALUES:
        return cast(AdminListCategoriesOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_CATEGORIES_ORDERING_ITEM_VALUES!r}")
