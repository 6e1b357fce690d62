from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrustedAttesterRequest")


@_attrs_define
class TrustedAttesterRequest:
    """
    Attributes:
        chain_id (int):
        address (str):  Example: 0xabababababababababababababababababababab.
        note (str | Unset):
    """

    chain_id: int
    address: str
    note: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        address = self.address

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chainId": chain_id,
                "address": address,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain_id = d.pop("chainId")

        address = d.pop("address")

        note = d.pop("note", UNSET)

        trusted_attester_request = cls(
            chain_id=chain_id,
            address=address,
            note=note,
        )

        return trusted_attester_request
