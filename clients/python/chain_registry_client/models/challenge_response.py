from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

T = TypeVar("T", bound="ChallengeResponse")


@_attrs_define
class ChallengeResponse:
    """
    Attributes:
        message (str): The EIP-4361 message to sign, unchanged.
        nonce (str):
        address (str):
        chain_id (int):
        issued_at (datetime.datetime):
        expires_at (datetime.datetime): After this the proof is refused.
    """

    message: str
    nonce: str
    address: str
    chain_id: int
    issued_at: datetime.datetime
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        nonce = self.nonce

        address = self.address

        chain_id = self.chain_id

        issued_at = self.issued_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "nonce": nonce,
                "address": address,
                "chainId": chain_id,
                "issuedAt": issued_at,
                "expiresAt": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        nonce = d.pop("nonce")

        address = d.pop("address")

        chain_id = d.pop("chainId")

        issued_at = isoparse(d.pop("issuedAt"))

        expires_at = isoparse(d.pop("expiresAt"))

        challenge_response = cls(
            message=message,
            nonce=nonce,
            address=address,
            chain_id=chain_id,
            issued_at=issued_at,
            expires_at=expires_at,
        )

        challenge_response.additional_properties = d
        return challenge_response

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
