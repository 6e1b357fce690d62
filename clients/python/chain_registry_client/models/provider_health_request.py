from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from dateutil.parser import isoparse

from ..models.override_status_enum import OverrideStatusEnum, check_override_status_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProviderHealthRequest")


@_attrs_define
class ProviderHealthRequest:
    """
    Attributes:
        status (None | OverrideStatusEnum):
        provider (str | Unset):
        rpc_id (int | None | Unset):
        reason (str | Unset):
        until (datetime.datetime | None | Unset):
    """

    status: None | OverrideStatusEnum
    provider: str | Unset = UNSET
    rpc_id: int | None | Unset = UNSET
    reason: str | Unset = UNSET
    until: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: None | str
        if isinstance(self.status, str):
            status = self.status
        else:
            status = self.status

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

        field_dict.update(
            {
                "status": status,
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

        provider_health_request = cls(
            status=status,
            provider=provider,
            rpc_id=rpc_id,
            reason=reason,
            until=until,
        )

        return provider_health_request
