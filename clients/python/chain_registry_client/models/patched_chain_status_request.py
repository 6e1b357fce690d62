from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.chain_status_enum import ChainStatusEnum, check_chain_status_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedChainStatusRequest")


@_attrs_define
class PatchedChainStatusRequest:
    """
    Attributes:
        status (ChainStatusEnum | Unset): * `active` - Active
            * `inactive` - Inactive
    """

    status: ChainStatusEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ChainStatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_chain_status_enum(_status)

        patched_chain_status_request = cls(
            status=status,
        )

        return patched_chain_status_request
