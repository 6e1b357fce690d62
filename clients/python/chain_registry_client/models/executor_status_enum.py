from typing import Literal, cast

ExecutorStatusEnum = Literal[
    "blocked_by_fees", "deregistered", "draining", "healthy", "low_funds", "offline", "signer_error", "stale"
]

EXECUTOR_STATUS_ENUM_VALUES: set[ExecutorStatusEnum] = {
    "blocked_by_fees",
    "deregistered",
    "draining",
    "healthy",
    "low_funds",
    "offline",
    "signer_error",
    "stale",
}


def check_executor_status_enum(value: str) -> ExecutorStatusEnum:
    if value in EXECUTOR_STATUS_ENUM_VALUES:
        return cast(ExecutorStatusEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXECUTOR_STATUS_ENUM_VALUES!r}")
