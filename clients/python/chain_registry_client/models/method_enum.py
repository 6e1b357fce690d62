from typing import Literal, cast

MethodEnum = Literal["did_web", "dns"]

METHOD_ENUM_VALUES: set[MethodEnum] = {
    "did_web",
    "dns",
}


def check_method_enum(value: str) -> MethodEnum:
    if value in METHOD_ENUM_VALUES:
        return cast(MethodEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {METHOD_ENUM_VALUES!r}")
