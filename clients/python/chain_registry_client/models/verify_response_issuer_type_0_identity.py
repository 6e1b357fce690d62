from typing import Literal, cast

VerifyResponseIssuerType0Identity = Literal["lapsed", "proven", "unproven"]

VERIFY_RESPONSE_ISSUER_TYPE_0_IDENTITY_VALUES: set[VerifyResponseIssuerType0Identity] = {
    "lapsed",
    "proven",
    "unproven",
}


def check_verify_response_issuer_type_0_identity(value: str) -> VerifyResponseIssuerType0Identity:
    if value in VERIFY_RESPONSE_ISSUER_TYPE_0_IDENTITY_VALUES:
        return cast(VerifyResponseIssuerType0Identity, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERIFY_RESPONSE_ISSUER_TYPE_0_IDENTITY_VALUES!r}")
