from typing import Literal, cast

BindingModeEnum = Literal["merkle", "multi", "single"]

BINDING_MODE_ENUM_VALUES: set[BindingModeEnum] = {
    "merkle",
    "multi",
    "single",
}


def check_binding_mode_enum(value: str) -> BindingModeEnum:
    if value in BINDING_MODE_ENUM_VALUES:
        return cast(BindingModeEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BINDING_MODE_ENUM_VALUES!r}")
