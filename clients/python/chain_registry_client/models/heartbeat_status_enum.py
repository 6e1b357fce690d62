from typing import Literal, cast

HeartbeatStatusEnum = Literal["busy", "draining", "ok"]

HEARTBEAT_STATUS_ENUM_VALUES: set[HeartbeatStatusEnum] = {
    "busy",
    "draining",
    "ok",
}


def check_heartbeat_status_enum(value: str) -> HeartbeatStatusEnum:
    if value in HEARTBEAT_STATUS_ENUM_VALUES:
        return cast(HeartbeatStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEARTBEAT_STATUS_ENUM_VALUES!r}")
