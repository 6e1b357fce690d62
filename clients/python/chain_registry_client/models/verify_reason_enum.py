from typing import Literal, cast

VerifyReasonEnum = Literal[
    "chain_inactive",
    "expired",
    "invalid_proof",
    "not_final",
    "not_found",
    "not_timestamped",
    "revoked",
    "undecodable",
    "unproven_issuer",
    "untrusted_attester",
]

VERIFY_REASON_ENUM_VALUES: set[VerifyReasonEnum] = {
    "chain_inactive",
    "expired",
    "invalid_proof",
    "not_final",
    "not_found",
    "not_timestamped",
    "revoked",
    "undecodable",
    "unproven_issuer",
    "untrusted_attester",
}


def check_verify_reason_enum(value: str) -> VerifyReasonEnum:
    if value in VERIFY_REASON_ENUM_VALUES:
        return cast(VerifyReasonEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERIFY_REASON_ENUM_VALUES!r}")
