from typing import Literal, cast

TrustEnum = Literal["pending", "revoked", "trusted"]

TRUST_ENUM_VALUES: set[TrustEnum] = {
    "pending",
    "revoked",
    "trusted",
}


def check_trust_enum(value: str) -> TrustEnum:
    if value in TRUST_ENUM_VALUES:
        return cast(TrustEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRUST_ENUM_VALUES!r}")
