from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Uptime")


@_attrs_define
class Uptime:
    """
    Attributes:
        field_1h (float | None):
        field_24h (float | None):
    """

    field_1h: float | None
    field_24h: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_1h: float | None
        field_1h = self.field_1h

        field_24h: float | None
        field_24h = self.field_24h

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "1h": field_1h,
                "24h": field_24h,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_field_1h(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        field_1h = _parse_field_1h(d.pop("1h"))

        def _parse_field_24h(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        field_24h = _parse_field_24h(d.pop("24h"))

        uptime = cls(
            field_1h=field_1h,
            field_24h=field_24h,
        )

        uptime.additional_properties = d
        return uptime

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
