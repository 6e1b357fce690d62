from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.override_status_enum import OverrideStatusEnum, check_override_status_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProviderHealth")


@_attrs_define
class ProviderHealth:
    """
    Attributes:
        id (int):
        status (None | OverrideStatusEnum):
        reported_by (str): Key prefix or user.
        created_at (datetime.datetime):
        affected_endpoints (list[int]):
        provider (str | Unset):
        rpc_id (int | None | Unset):
        reason (str | Unset):
        until (datetime.datetime | None | Unset):
    """

    id: int
    status: None | OverrideStatusEnum
    reported_by: str
    created_at: datetime.datetime
    affected_endpoints: list[int]
    provider: str | Unset = UNSET
    rpc_id: int | None | Unset = UNSET
    reason: str | Unset = UNSET
    until: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status: None | str
        if isinstance(self.status, str):
            status = self.status
        else:
            status = self.status

        reported_by = self.reported_by

        created_at = self.created_at.isoformat()

        affected_endpoints = self.affected_endpoints

        provider = self.provider

        rpc_id: int | None | Unset
        if isinstance(self.rpc_id, Unset):
            rpc_id = UNSET
        else:
            rpc_id = self.rpc_id

        reason = self.reason

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        elif isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "reportedBy": reported_by,
                "createdAt": created_at,
                "affectedEndpoints": affected_endpoints,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider
        if rpc_id is not UNSET:
            field_dict["rpcId"] = rpc_id
        if reason is not UNSET:
            field_dict["reason"] = reason
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_status(data: object) -> None | OverrideStatusEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = check_override_status_enum(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OverrideStatusEnum, data)

        status = _parse_status(d.pop("status"))

        reported_by = d.pop("reportedBy")

        created_at = isoparse(d.pop("createdAt"))

        affected_endpoints = cast(list[int], d.pop("affectedEndpoints"))

        provider = d.pop("provider", UNSET)

        def _parse_rpc_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rpc_id = _parse_rpc_id(d.pop("rpcId", UNSET))

        reason = d.pop("reason", UNSET)

        def _parse_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = isoparse(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        provider_health = cls(
            id=id,
            status=status,
            reported_by=reported_by,
            created_at=created_at,
            affected_endpoints=affected_endpoints,
            provider=provider,
            rpc_id=rpc_id,
            reason=reason,
            until=until,
        )

        provider_health.additional_properties = d
        return provider_health

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
