from typing import Literal, cast

IdentityEnum = Literal["lapsed", "proven", "unproven"]

IDENTITY_ENUM_VALUES: set[IdentityEnum] = {
    "lapsed",
    "proven",
    "unproven",
}


def check_identity_enum(value: str) -> IdentityEnum:
    if value in IDENTITY_ENUM_VALUES:
        return cast(IdentityEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {IDENTITY_ENUM_VALUES!r}")
