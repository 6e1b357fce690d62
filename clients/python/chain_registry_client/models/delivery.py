from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.delivery_state_enum import DeliveryStateEnum, check_delivery_state_enum

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """
    Attributes:
        id (UUID):
        webhook_id (str): The `webhook-id` header.
        event_id (int):
        event_type (str):
        occurred_at (datetime.datetime):
        state (DeliveryStateEnum): * `pending` - Pending
            * `delivered` - Delivered
            * `failed` - Failed
        attempts (int):
        next_attempt_at (datetime.datetime):
        delivered_at (datetime.datetime | None):
        last_attempt_at (datetime.datetime | None):
        last_status_code (int | None):
        last_error (None | str):
        created_at (datetime.datetime):
    """

    id: UUID
    webhook_id: str
    event_id: int
    event_type: str
    occurred_at: datetime.datetime
    state: DeliveryStateEnum
    attempts: int
    next_attempt_at: datetime.datetime
    delivered_at: datetime.datetime | None
    last_attempt_at: datetime.datetime | None
    last_status_code: int | None
    last_error: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        webhook_id = self.webhook_id

        event_id = self.event_id

        event_type = self.event_type

        occurred_at = self.occurred_at.isoformat()

        state: str = self.state

        attempts = self.attempts

        next_attempt_at = self.next_attempt_at.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "webhookId": webhook_id,
                "eventId": event_id,
                "eventType": event_type,
                "occurredAt": occurred_at,
                "state": state,
                "attempts": attempts,
                "nextAttemptAt": next_attempt_at,
                "deliveredAt": delivered_at,
                "lastAttemptAt": last_attempt_at,
                "lastStatusCode": last_status_code,
                "lastError": last_error,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        webhook_id = d.pop("webhookId")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        occurred_at = isoparse(d.pop("occurredAt"))

        state = check_delivery_state_enum(d.pop("state"))

        attempts = d.pop("attempts")

        next_attempt_at = isoparse(d.pop("nextAttemptAt"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = isoparse(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = isoparse(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("lastAttemptAt"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("lastStatusCode"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        created_at = isoparse(d.pop("createdAt"))

        delivery = cls(
            id=id,
            webhook_id=webhook_id,
            event_id=event_id,
            event_type=event_type,
            occurred_at=occurred_at,
            state=state,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            delivered_at=delivered_at,
            last_attempt_at=last_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            created_at=created_at,
        )

        delivery.additional_properties = d
        return delivery

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
