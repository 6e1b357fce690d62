from typing import Literal, cast

ExecutorStatusEnum = Literal["deregistered", "draining", "healthy", "offline", "stale"]

EXECUTOR_STATUS_ENUM_VALUES: set[ExecutorStatusEnum] = {
    "deregistered",
    "draining",
    "healthy",
    "offline",
    "stale",
}


def check_executor_status_enum(value: str) -> ExecutorStatusEnum:
    if value in EXECUTOR_STATUS_ENUM_VALUES:
        return cast(ExecutorStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXECUTOR_STATUS_ENUM_VALUES!r}")
