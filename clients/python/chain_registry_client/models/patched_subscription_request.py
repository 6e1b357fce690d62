from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_event_type_enum import WebhookEventTypeEnum, check_webhook_event_type_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedSubscriptionRequest")


@_attrs_define
class PatchedSubscriptionRequest:
    """
    Attributes:
        url (str | Unset): https (http and private addresses only when the service allows them: WEBHOOKS_ALLOW_PRIVATE).
        event_types (list[WebhookEventTypeEnum] | Unset): The event types to receive.
        chain_id (int | None | Unset): Only events of this chain.
        workflow_id (None | Unset | UUID): Only this workflow's events.
        document_hash (None | str | Unset): Only events of this document hash (for document events it also counts as a
            watch). Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        description (str | Unset):
        enabled (bool | Unset):
    """

    url: str | Unset = UNSET
    event_types: list[WebhookEventTypeEnum] | Unset = UNSET
    chain_id: int | None | Unset = UNSET
    workflow_id: None | Unset | UUID = UNSET
    document_hash: None | str | Unset = UNSET
    description: str | Unset = UNSET
    enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item: str = event_types_item_data
                event_types.append(event_types_item)

        chain_id: int | None | Unset
        if isinstance(self.chain_id, Unset):
            chain_id = UNSET
        else:
            chain_id = self.chain_id

        workflow_id: None | str | Unset
        if isinstance(self.workflow_id, Unset):
            workflow_id = UNSET
        elif isinstance(self.workflow_id, UUID):
            workflow_id = str(self.workflow_id)
        else:
            workflow_id = self.workflow_id

        document_hash: None | str | Unset
        if isinstance(self.document_hash, Unset):
            document_hash = UNSET
        else:
            document_hash = self.document_hash

        description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["eventTypes"] = event_types
        if chain_id is not UNSET:
            field_dict["chainId"] = chain_id
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id
        if document_hash is not UNSET:
            field_dict["documentHash"] = document_hash
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _event_types = d.pop("eventTypes", UNSET)
        event_types: list[WebhookEventTypeEnum] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = check_webhook_event_type_enum(event_types_item_data)

                event_types.append(event_types_item)

        def _parse_chain_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chain_id = _parse_chain_id(d.pop("chainId", UNSET))

        def _parse_workflow_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                workflow_id_type_0 = UUID(data)

                return workflow_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        workflow_id = _parse_workflow_id(d.pop("workflowId", UNSET))

        def _parse_document_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_hash = _parse_document_hash(d.pop("documentHash", UNSET))

        description = d.pop("description", UNSET)

        enabled = d.pop("enabled", UNSET)

        patched_subscription_request = cls(
            url=url,
            event_types=event_types,
            chain_id=chain_id,
            workflow_id=workflow_id,
            document_hash=document_hash,
            description=description,
            enabled=enabled,
        )

        return patched_subscription_request
