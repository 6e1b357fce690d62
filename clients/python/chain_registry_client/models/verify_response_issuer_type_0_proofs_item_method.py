from typing import Literal, cast

VerifyResponseIssuerType0ProofsItemMethod = Literal["did_web", "dns"]

VERIFY_RESPONSE_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES: set[VerifyResponseIssuerType0ProofsItemMethod] = {
    "did_web",
    "dns",
}


def check_verify_response_issuer_type_0_proofs_item_method(value: str) -> VerifyResponseIssuerType0ProofsItemMethod:
    if value in VERIFY_RESPONSE_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES:
        return cast(VerifyResponseIssuerType0ProofsItemMethod, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {VERIFY_RESPONSE_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES!r}"
    )
