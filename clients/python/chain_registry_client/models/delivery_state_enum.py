from typing import Literal, cast

DeliveryStateEnum = Literal["delivered", "failed", "pending"]

DELIVERY_STATE_ENUM_VALUES: set[DeliveryStateEnum] = {
    "delivered",
    "failed",
    "pending",
}


def check_delivery_state_enum(value: str) -> DeliveryStateEnum:
    if value in DELIVERY_STATE_ENUM_VALUES:
        return cast(DeliveryStateEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELIVERY_STATE_ENUM_VALUES!r}")
