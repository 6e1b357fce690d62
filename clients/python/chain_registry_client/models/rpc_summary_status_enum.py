from typing import Literal, cast

RpcSummaryStatusEnum = Literal["degraded", "down", "healthy", "maintenance", "unknown"]

RPC_SUMMARY_STATUS_ENUM_VALUES: set[RpcSummaryStatusEnum] = {
    "degraded",
    "down",
    "healthy",
    "maintenance",
    "unknown",
}


def check_rpc_summary_status_enum(value: str) -> RpcSummaryStatusEnum:
    if value in RPC_SUMMARY_STATUS_ENUM_VALUES:
        return cast(RpcSummaryStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RPC_SUMMARY_STATUS_ENUM_VALUES!r}")
