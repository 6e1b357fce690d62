from typing import Literal, cast

WebhookEventTypeEnum = Literal[
    "chain.resumed",
    "chain.stalled",
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "issuer.identity_lapsed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
]

WEBHOOK_EVENT_TYPE_ENUM_VALUES: set[WebhookEventTypeEnum] = {
    "chain.resumed",
    "chain.stalled",
    "chain.status_changed",
    "document.revoked",
    "document.verified",
    "executor.status_changed",
    "issuer.identity_lapsed",
    "rpc_endpoint.status_changed",
    "workflow.confirmed",
    "workflow.failed",
    "workflow.state_changed",
}


def check_webhook_event_type_enum(value: str) -> WebhookEventTypeEnum:
    if value in WEBHOOK_EVENT_TYPE_ENUM_VALUES:
        return cast(WebhookEventTypeEnum, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_EVENT_TYPE_ENUM_VALUES!r}")
