from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.blank_enum import BlankEnum, check_blank_enum
from ..models.executor_status_enum import ExecutorStatusEnum, check_executor_status_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="StatusChange")


@_attrs_define
class StatusChange:
    """
    Attributes:
        to_status (ExecutorStatusEnum): * `healthy` - Healthy
            * `stale` - Stale
            * `offline` - Offline
            * `draining` - Draining
            * `deregistered` - Deregistered
            * `low_funds` - Low Funds
            * `blocked_by_fees` - Blocked By Fees
            * `signer_error` - Signer Error
        cause (str):
        from_status (BlankEnum | ExecutorStatusEnum | Unset):
        created_at (datetime.datetime | Unset):
    """

    to_status: ExecutorStatusEnum
    cause: str
    from_status: BlankEnum | ExecutorStatusEnum | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        to_status: str = self.to_status

        cause = self.cause

        from_status: str | Unset
        if isinstance(self.from_status, Unset):
            from_status = UNSET
        elif isinstance(self.from_status, str):
            from_status = self.from_status
        else:
            from_status = self.from_status

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "toStatus": to_status,
                "cause": cause,
            }
        )
        if from_status is not UNSET:
            field_dict["fromStatus"] = from_status
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to_status = check_executor_status_enum(d.pop("toStatus"))

        cause = d.pop("cause")

        def _parse_from_status(data: object) -> BlankEnum | ExecutorStatusEnum | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_status_type_0 = check_executor_status_enum(data)

                return from_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            from_status_type_1 = check_blank_enum(data)

            return from_status_type_1

        from_status = _parse_from_status(d.pop("fromStatus", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = isoparse(_created_at)

        status_change = cls(
            to_status=to_status,
            cause=cause,
            from_status=from_status,
            created_at=created_at,
        )

        status_change.additional_properties = d
        return status_change

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
