from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """
    Attributes:
        attempted_at (datetime.datetime):
        status_code (int | None):
        latency_ms (int):
        ok (bool):
        error (str): Our words for a failure without an answer.
        response_excerpt (str): The answer's first characters.
    """

    attempted_at: datetime.datetime
    status_code: int | None
    latency_ms: int
    ok: bool
    error: str
    response_excerpt: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        status_code: int | None
        status_code = self.status_code

        latency_ms = self.latency_ms

        ok = self.ok

        error = self.error

        response_excerpt = self.response_excerpt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptedAt": attempted_at,
                "statusCode": status_code,
                "latencyMs": latency_ms,
                "ok": ok,
                "error": error,
                "responseExcerpt": response_excerpt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = isoparse(d.pop("attemptedAt"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        latency_ms = d.pop("latencyMs")

        ok = d.pop("ok")

        error = d.pop("error")

        response_excerpt = d.pop("responseExcerpt")

        delivery_attempt = cls(
            attempted_at=attempted_at,
            status_code=status_code,
            latency_ms=latency_ms,
            ok=ok,
            error=error,
            response_excerpt=response_excerpt,
        )

        delivery_attempt.additional_properties = d
        return delivery_attempt

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
