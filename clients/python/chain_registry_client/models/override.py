from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.override_status_enum import OverrideStatusEnum, check_override_status_enum

T = TypeVar("T", bound="Override")


@_attrs_define
class Override:
    """
    Attributes:
        status (OverrideStatusEnum): * `healthy` - Healthy
            * `degraded` - Degraded
            * `down` - Down
            * `maintenance` - Maintenance
        reason (str):
        until (datetime.datetime | None):
        reported_at (datetime.datetime):
    """

    status: OverrideStatusEnum
    reason: str
    until: datetime.datetime | None
    reported_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        reason = self.reason

        until: None | str
        if isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        reported_at = self.reported_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "reason": reason,
                "until": until,
                "reportedAt": reported_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = check_override_status_enum(d.pop("status"))

        reason = d.pop("reason")

        def _parse_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = isoparse(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        until = _parse_until(d.pop("until"))

        reported_at = isoparse(d.pop("reportedAt"))

        override = cls(
            status=status,
            reason=reason,
            until=until,
            reported_at=reported_at,
        )

        override.additional_properties = d
        return override

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
