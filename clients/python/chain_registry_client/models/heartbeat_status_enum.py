from typing import Literal, cast

HeartbeatStatusEnum = Literal["blocked_by_fees", "busy", "draining", "low_funds", "ok", "signer_error"]

HEARTBEAT_STATUS_ENUM_VALUES: set[HeartbeatStatusEnum] = {
    "blocked_by_fees",
    "busy",
    "draining",
    "low_funds",
    "ok",
    "signer_error",
}


def check_heartbeat_status_enum(value: str) -> HeartbeatStatusEnum:
    if value in HEARTBEAT_STATUS_ENUM_VALUES:
        return cast(HeartbeatStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEARTBEAT_STATUS_ENUM_VALUES!r}")
