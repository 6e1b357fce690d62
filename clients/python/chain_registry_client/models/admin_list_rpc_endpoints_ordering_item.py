from typing import Literal, cast

AdminListRpcEndpointsOrderingItem = Literal[
    "-chainId",
    "-id",
    "-lastCheckedAt",
    "-latencyMs",
    "-priority",
    "chainId",
    "id",
    "lastCheckedAt",
    "latencyMs",
    "priority",
]

ADMIN_LIST_RPC_ENDPOINTS_ORDERING_ITEM_VALUES: set[AdminListRpcEndpointsOrderingItem] = {
    "-chainId",
    "-id",
    "-lastCheckedAt",
    "-latencyMs",
    "-priority",
    "chainId",
    "id",
    "lastCheckedAt",
    "latencyMs",
    "priority",
}


def check_admin_list_rpc_endpoints_ordering_item(value: str) -> AdminListRpcEndpointsOrderingItem:
    if value in ADMIN_LIST_RPC_ENDPOINTS_ORDERING_ITEM_VALUES:
        return cast(AdminListRpcEndpointsOrderingItem, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_RPC_ENDPOINTS_ORDERING_ITEM_VALUES!r}")
