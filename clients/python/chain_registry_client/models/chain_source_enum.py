from typing import Literal, cast

ChainSourceEnum = Literal["admin", "import"]

CHAIN_SOURCE_ENUM_VALUES: set[ChainSourceEnum] = {
    "admin",
    "import",
}


def check_chain_source_enum(value: str) -> ChainSourceEnum:
    if value in CHAIN_SOURCE_ENUM_VALUES:
        return cast(ChainSourceEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHAIN_SOURCE_ENUM_VALUES!r}")
