from typing import Literal, cast

VerifyBatchResultFinalityType0Rule = Literal["confirmations", "finalized", "safe"]

VERIFY_BATCH_RESULT_FINALITY_TYPE_0_RULE_VALUES: set[VerifyBatchResultFinalityType0Rule] = {
    "confirmations",
    "finalized",
    "safe",
}


def check_verify_batch_result_finality_type_0_rule(value: str) -> VerifyBatchResultFinalityType0Rule:
    if value in VERIFY_BATCH_RESULT_FINALITY_TYPE_0_RULE_VALUES:
        return cast(VerifyBatchResultFinalityType0Rule, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERIFY_BATCH_RESULT_FINALITY_TYPE_0_RULE_VALUES!r}")
