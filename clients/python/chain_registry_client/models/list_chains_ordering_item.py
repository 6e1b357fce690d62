from typing import Literal, cast

ListChainsOrderingItem = Literal["-chainId", "-name", "-shortName", "chainId", "name", "shortName"]

LIST_CHAINS_ORDERING_ITEM_VALUES: set[ListChainsOrderingItem] = {
    "-chainId",
    "-name",
    "-shortName",
    "chainId",
    "name",
    "shortName",
}


def check_list_chains_ordering_item(value: str) -> ListChainsOrderingItem:
    if value in LIST_CHAINS_ORDERING_ITEM_VALUES:
        return cast(ListChainsOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_CHAINS_ORDERING_ITEM_VALUES!r}")
