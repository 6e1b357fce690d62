from typing import Literal, cast

VerifyBatchResultIssuerType0Identity = Literal["lapsed", "proven", "unproven"]

VERIFY_BATCH_RESULT_ISSUER_TYPE_0_IDENTITY_VALUES: set[VerifyBatchResultIssuerType0Identity] = {
    "lapsed",
    "proven",
    "unproven",
}


def check_verify_batch_result_issuer_type_0_identity(value: str) -> VerifyBatchResultIssuerType0Identity:
    if value in VERIFY_BATCH_RESULT_ISSUER_TYPE_0_IDENTITY_VALUES:
        return cast(VerifyBatchResultIssuerType0Identity, value)
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {VERIFY_BATCH_RESULT_ISSUER_TYPE_0_IDENTITY_VALUES!r}"
    )
