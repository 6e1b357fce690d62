from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.webhook_event_type_enum import WebhookEventTypeEnum, check_webhook_event_type_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """
    Attributes:
        id (UUID):
        url (str): https (http and private addresses only when the service allows them: WEBHOOKS_ALLOW_PRIVATE).
        event_types (list[WebhookEventTypeEnum]): The event types to receive.
        disabled_at (datetime.datetime | None):
        disabled_reason (str): Why the service disabled it.
        owner (str): Prefix of the key that created it.
        previous_secret_expires_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        chain_id (int | None | Unset): Only events of this chain.
        workflow_id (None | Unset | UUID): Only this workflow's events.
        document_hash (None | str | Unset): Only events of this document hash (for document events it also counts as a
            watch). Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        description (str | Unset):
        enabled (bool | Unset):
    """

    id: UUID
    url: str
    event_types: list[WebhookEventTypeEnum]
    disabled_at: datetime.datetime | None
    disabled_reason: str
    owner: str
    previous_secret_expires_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    chain_id: int | None | Unset = UNSET
    workflow_id: None | Unset | UUID = UNSET
    document_hash: None | str | Unset = UNSET
    description: str | Unset = UNSET
    enabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item: str = event_types_item_data
            event_types.append(event_types_item)

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        disabled_reason = self.disabled_reason

        owner = self.owner

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "eventTypes": event_types,
                "disabledAt": disabled_at,
                "disabledReason": disabled_reason,
                "owner": owner,
                "previousSecretExpiresAt": previous_secret_expires_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
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
        id = UUID(d.pop("id"))

        url = d.pop("url")

        event_types = []
        _event_types = d.pop("eventTypes")
        for event_types_item_data in _event_types:
            event_types_item = check_webhook_event_type_enum(event_types_item_data)

            event_types.append(event_types_item)

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = isoparse(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabledAt"))

        disabled_reason = d.pop("disabledReason")

        owner = d.pop("owner")

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = isoparse(data)

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previousSecretExpiresAt"))

        created_at = isoparse(d.pop("createdAt"))

        updated_at = isoparse(d.pop("updatedAt"))

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

        subscription = cls(
            id=id,
            url=url,
            event_types=event_types,
            disabled_at=disabled_at,
            disabled_reason=disabled_reason,
            owner=owner,
            previous_secret_expires_at=previous_secret_expires_at,
            created_at=created_at,
            updated_at=updated_at,
            chain_id=chain_id,
            workflow_id=workflow_id,
            document_hash=document_hash,
            description=description,
            enabled=enabled,
        )

        subscription.additional_properties = d
        return subscription

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
