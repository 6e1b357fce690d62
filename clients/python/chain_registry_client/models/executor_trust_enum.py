from typing import Literal, cast

ExecutorTrustEnum = Literal["approval", "automatic"]

EXECUTOR_TRUST_ENUM_VALUES: set[ExecutorTrustEnum] = {
    "approval",
    "automatic",
}


def check_executor_trust_enum(value: str) -> ExecutorTrustEnum:
    if value in EXECUTOR_TRUST_ENUM_VALUES:
        return cast(ExecutorTrustEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXECUTOR_TRUST_ENUM_VALUES!r}")
