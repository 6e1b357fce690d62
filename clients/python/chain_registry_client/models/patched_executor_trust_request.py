from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedExecutorTrustRequest")


@_attrs_define
class PatchedExecutorTrustRequest:
    """
    Attributes:
        trusted (bool | Unset):
        reason (str | Unset): Why: kept on the executor and in the audit trail. Default: ''.
    """

    trusted: bool | Unset = UNSET
    reason: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        trusted = self.trusted

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if trusted is not UNSET:
            field_dict["trusted"] = trusted
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        trusted = d.pop("trusted", UNSET)

        reason = d.pop("reason", UNSET)

        patched_executor_trust_request = cls(
            trusted=trusted,
            reason=reason,
        )

        return patched_executor_trust_request
