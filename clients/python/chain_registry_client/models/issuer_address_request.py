from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="IssuerAddressRequest")


@_attrs_define
class IssuerAddressRequest:
    """
    Attributes:
        chain_id (int):
        address (str):  Example: 0xabababababababababababababababababababab.
    """

    chain_id: int
    address: str

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        address = self.address

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chainId": chain_id,
                "address": address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain_id = d.pop("chainId")

        address = d.pop("address")

        issuer_address_request = cls(
            chain_id=chain_id,
            address=address,
        )

        return issuer_address_request
