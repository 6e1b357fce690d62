from typing import Literal, cast

ChainStatusEnum = Literal["active", "inactive"]

CHAIN_STATUS_ENUM_VALUES: set[ChainStatusEnum] = {
    "active",
    "inactive",
}


def check_chain_status_enum(value: str) -> ChainStatusEnum:
    if value in CHAIN_STATUS_ENUM_VALUES:
        return cast(ChainStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHAIN_STATUS_ENUM_VALUES!r}")
