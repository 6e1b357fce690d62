from typing import Literal, cast

ScopeEnum = Literal["admin", "api", "executor"]

SCOPE_ENUM_VALUES: set[ScopeEnum] = {
    "admin",
    "api",
    "executor",
}


def check_scope_enum(value: str) -> ScopeEnum:
    if value in SCOPE_ENUM_VALUES:
        return cast(ScopeEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SCOPE_ENUM_VALUES!r}")
