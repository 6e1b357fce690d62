from typing import Literal, cast

VerifyResponseFinalityType0Rule = Literal["confirmations", "finalized", "safe"]

VERIFY_RESPONSE_FINALITY_TYPE_0_RULE_VALUES: set[VerifyResponseFinalityType0Rule] = {
    "confirmations",
    "finalized",
    "safe",
}


def check_verify_response_finality_type_0_rule(value: str) -> VerifyResponseFinalityType0Rule:
    if value in VERIFY_RESPONSE_FINALITY_TYPE_0_RULE_VALUES:
        return cast(VerifyResponseFinalityType0Rule, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERIFY_RESPONSE_FINALITY_TYPE_0_RULE_VALUES!r}")
