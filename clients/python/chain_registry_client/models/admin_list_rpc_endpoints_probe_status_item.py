from typing import Literal, cast

AdminListRpcEndpointsProbeStatusItem = Literal["degraded", "down", "healthy", "unknown"]

ADMIN_LIST_RPC_ENDPOINTS_PROBE_STATUS_ITEM_VALUES: set[AdminListRpcEndpointsProbeStatusItem] = {
    "degraded",
    "down",
    "healthy",
    "unknown",
}


def check_admin_list_rpc_endpoints_probe_status_item(value: str) -> AdminListRpcEndpointsProbeStatusItem:
    if value in ADMIN_LIST_RPC_ENDPOINTS_PROBE_STATUS_ITEM_VALUES:
        return cast(AdminListRpcEndpointsProbeStatusItem, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_LIST_RPC_ENDPOINTS_PROBE_STATUS_ITEM_VALUES!r}"
    )
