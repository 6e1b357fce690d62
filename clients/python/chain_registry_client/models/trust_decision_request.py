from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrustDecisionRequest")


@_attrs_define
class TrustDecisionRequest:
    """
    Attributes:
        reason (str | Unset): Why: kept on the executor and in the audit trail. Default: ''.
    """

    reason: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason", UNSET)

        trust_decision_request = cls(
            reason=reason,
        )

        return trust_decision_request
