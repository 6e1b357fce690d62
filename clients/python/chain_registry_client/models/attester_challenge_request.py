from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AttesterChallengeRequest")


@_attrs_define
class AttesterChallengeRequest:
    """
    Attributes:
        address (str): The address whose key will sign the challenge. Example:
            0xabababababababababababababababababababab.
        chain_id (int): The chain the trusted attester is for.
    """

    address: str
    chain_id: int

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        chain_id = self.chain_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
                "chainId": chain_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        chain_id = d.pop("chainId")

        attester_challenge_request = cls(
            address=address,
            chain_id=chain_id,
        )

        return attester_challenge_request
