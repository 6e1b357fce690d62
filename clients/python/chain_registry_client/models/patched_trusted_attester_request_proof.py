from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PatchedTrustedAttesterRequestProof")


@_attrs_define
class PatchedTrustedAttesterRequestProof:
    """Optional: a challenge (POST /v1/admin/trusted-attesters/challenge) signed by the address, proving it holds its key;
    refused (400) unless valid. Its time is kept as `provenAt`.

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

        patched_trusted_attester_request_proof = cls(
            message=message,
            signature=signature,
        )

        return patched_trusted_attester_request_proof
