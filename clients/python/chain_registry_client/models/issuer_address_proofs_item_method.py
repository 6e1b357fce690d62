from typing import Literal, cast

IssuerAddressProofsItemMethod = Literal["did_web", "dns"]

ISSUER_ADDRESS_PROOFS_ITEM_METHOD_VALUES: set[IssuerAddressProofsItemMethod] = {
    "did_web",
    "dns",
}


def check_issuer_address_proofs_item_method(value: str) -> IssuerAddressProofsItemMethod:
    if value in ISSUER_ADDRESS_PROOFS_ITEM_METHOD_VALUES:
        return cast(IssuerAddressProofsItemMethod, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ISSUER_ADDRESS_PROOFS_ITEM_METHOD_VALUES!r}")
