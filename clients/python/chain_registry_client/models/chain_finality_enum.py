from typing import Literal, cast

ChainFinalityEnum = Literal["confirmations", "finalized", "safe"]

CHAIN_FINALITY_ENUM_VALUES: set[ChainFinalityEnum] = {
    "confirmations",
    "finalized",
    "safe",
}


def check_chain_finality_enum(value: str) -> ChainFinalityEnum:
    if value in CHAIN_FINALITY_ENUM_VALUES:
        return cast(ChainFinalityEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHAIN_FINALITY_ENUM_VALUES!r}")
