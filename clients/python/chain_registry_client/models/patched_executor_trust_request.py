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
    """

    trusted: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        trusted = self.trusted

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if trusted is not UNSET:
            field_dict["trusted"] = trusted

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        trusted = d.pop("trusted", UNSET)

        patched_executor_trust_request = cls(
            trusted=trusted,
        )

        return patched_executor_trust_request
