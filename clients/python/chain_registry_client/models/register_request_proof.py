from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RegisterRequestProof")


@_attrs_define
class RegisterRequestProof:
    """A challenge (POST /v1/chain-registry/{chain}/challenge) signed by the address: registering proves the caller holds
    its key.

        Attributes:
            message (str): The EIP-4361 message of a challenge, exactly as issued.
            signature (str): The address's EIP-191 (personal_sign) signature of the message: 0x + 130 hex digits.
    """

    message: str
    signature: str

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        signature = self.signature

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        signature = d.pop("signature")

        register_request_proof = cls(
            message=message,
            signature=signature,
        )

        return register_request_proof
