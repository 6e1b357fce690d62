from typing import Literal, cast

WorkflowStateEnum = Literal["confirmed", "dispatched", "expired", "failed", "queued", "received", "submitted"]

WORKFLOW_STATE_ENUM_VALUES: set[WorkflowStateEnum] = {
    "confirmed",
    "dispatched",
    "expired",
    "failed",
    "queued",
    "received",
    "submitted",
}


def check_workflow_state_enum(value: str) -> WorkflowStateEnum:
    if value in WORKFLOW_STATE_ENUM_VALUES:
        return cast(WorkflowStateEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKFLOW_STATE_ENUM_VALUES!r}")
