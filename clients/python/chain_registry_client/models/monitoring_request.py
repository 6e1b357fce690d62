from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MonitoringRequest")


@_attrs_define
class MonitoringRequest:
    """
    Attributes:
        enabled (bool | Unset):
        interval_seconds (int | Unset):
        timeout_ms (int | Unset):
    """

    enabled: bool | Unset = UNSET
    interval_seconds: int | Unset = UNSET
    timeout_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        interval_seconds = self.interval_seconds

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if interval_seconds is not UNSET:
            field_dict["intervalSeconds"] = interval_seconds
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        interval_seconds = d.pop("intervalSeconds", UNSET)

        timeout_ms = d.pop("timeoutMs", UNSET)

        monitoring_request = cls(
            enabled=enabled,
            interval_seconds=interval_seconds,
            timeout_ms=timeout_ms,
        )

        return monitoring_request
