from typing import Literal, cast

OverrideStatusEnum = Literal["degraded", "down", "healthy", "maintenance"]

OVERRIDE_STATUS_ENUM_VALUES: set[OverrideStatusEnum] = {
    "degraded",
    "down",
    "healthy",
    "maintenance",
}


def check_override_status_enum(value: str) -> OverrideStatusEnum:
    if value in OVERRIDE_STATUS_ENUM_VALUES:
        return cast(OverrideStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OVERRIDE_STATUS_ENUM_VALUES!r}")
