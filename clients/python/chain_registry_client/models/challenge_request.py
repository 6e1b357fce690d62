from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChallengeRequest")


@_attrs_define
class ChallengeRequest:
    """
    Attributes:
        address (str): The address whose key will sign the challenge. Example:
            0xabababababababababababababababababababab.
    """

    address: str

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        challenge_request = cls(
            address=address,
        )

        return challenge_request
