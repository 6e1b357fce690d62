from typing import Literal, cast

StallReasonEnum = Literal["finality_not_advancing", "no_new_head"]

STALL_REASON_ENUM_VALUES: set[StallReasonEnum] = {
    "finality_not_advancing",
    "no_new_head",
}


def check_stall_reason_enum(value: str) -> StallReasonEnum:
    if value in STALL_REASON_ENUM_VALUES:
        return cast(StallReasonEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STALL_REASON_ENUM_VALUES!r}")
