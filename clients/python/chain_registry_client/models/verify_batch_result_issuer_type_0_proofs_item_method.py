from typing import Literal, cast

VerifyBatchResultIssuerType0ProofsItemMethod = Literal["did_web", "dns"]

VERIFY_BATCH_RESULT_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES: set[VerifyBatchResultIssuerType0ProofsItemMethod] = {
    "did_web",
    "dns",
}


def check_verify_batch_result_issuer_type_0_proofs_item_method(
    value: str,
) -> VerifyBatchResultIssuerType0ProofsItemMethod:
    if value in VERIFY_BATCH_RESULT_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES:
        return cast(VerifyBatchResultIssuerType0ProofsItemMethod, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {VERIFY_BATCH_RESULT_ISSUER_TYPE_0_PROOFS_ITEM_METHOD_VALUES!r}"
    )
