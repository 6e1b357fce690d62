from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateSecretRequest")


@_attrs_define
class RotateSecretRequest:
    """
    Attributes:
        overlap_seconds (int | Unset): How long the current secret keeps signing beside the new one (0: not). Default:
            86400.
    """

    overlap_seconds: int | Unset = 86400

    def to_dict(self) -> dict[str, Any]:
        overlap_seconds = self.overlap_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if overlap_seconds is not UNSET:
            field_dict["overlapSeconds"] = overlap_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        overlap_seconds = d.pop("overlapSeconds", UNSET)

        rotate_secret_request = cls(
            overlap_seconds=overlap_seconds,
        )

        return rotate_secret_request
