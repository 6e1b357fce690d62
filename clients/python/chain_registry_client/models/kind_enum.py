from typing import Literal, cast

KindEnum = Literal["eas", "other", "schema_registry"]

KIND_ENUM_VALUES: set[KindEnum] = {
    "eas",
    "other",
    "schema_registry",
}


def check_kind_enum(value: str) -> KindEnum:
    if value in KIND_ENUM_VALUES:
        return cast(KindEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KIND_ENUM_VALUES!r}")
