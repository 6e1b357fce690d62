from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.trusted_attester_request_proof import TrustedAttesterRequestProof


T = TypeVar("T", bound="TrustedAttesterRequest")


@_attrs_define
class TrustedAttesterRequest:
    """
    Attributes:
        chain_id (int):
        address (str):  Example: 0xabababababababababababababababababababab.
        note (str | Unset):
        proof (TrustedAttesterRequestProof | Unset): Optional: a challenge (POST /v1/admin/trusted-attesters/challenge)
            signed by the address, proving it holds its key; refused (400) unless valid. Its time is kept as `provenAt`.
    """

    chain_id: int
    address: str
    note: str | Unset = UNSET
    proof: TrustedAttesterRequestProof | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        address = self.address

        note = self.note

        proof: dict[str, Any] | Unset = UNSET
        if not isinstance(self.proof, Unset):
            proof = self.proof.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chainId": chain_id,
                "address": address,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note
        if proof is not UNSET:
            field_dict["proof"] = proof

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trusted_attester_request_proof import TrustedAttesterRequestProof

        d = dict(src_dict)
        chain_id = d.pop("chainId")

        address = d.pop("address")

        note = d.pop("note", UNSET)

        _proof = d.pop("proof", UNSET)
        proof: TrustedAttesterRequestProof | Unset
        if isinstance(_proof, Unset):
            proof = UNSET
        else:
            proof = TrustedAttesterRequestProof.from_dict(_proof)

        trusted_attester_request = cls(
            chain_id=chain_id,
            address=address,
            note=note,
            proof=proof,
        )

        return trusted_attester_request
