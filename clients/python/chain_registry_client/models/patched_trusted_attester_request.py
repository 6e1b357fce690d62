from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patched_trusted_attester_request_proof import PatchedTrustedAttesterRequestProof


T = TypeVar("T", bound="PatchedTrustedAttesterRequest")


@_attrs_define
class PatchedTrustedAttesterRequest:
    """
    Attributes:
        chain_id (int | Unset):
        address (str | Unset):  Example: 0xabababababababababababababababababababab.
        note (str | Unset):
        proof (PatchedTrustedAttesterRequestProof | Unset): Optional: a challenge (POST /v1/admin/trusted-
            attesters/challenge) signed by the address, proving it holds its key; refused (400) unless valid. Its time is
            kept as `provenAt`.
    """

    chain_id: int | Unset = UNSET
    address: str | Unset = UNSET
    note: str | Unset = UNSET
    proof: PatchedTrustedAttesterRequestProof | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        address = self.address

        note = self.note

        proof: dict[str, Any] | Unset = UNSET
        if not isinstance(self.proof, Unset):
            proof = self.proof.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chain_id is not UNSET:
            field_dict["chainId"] = chain_id
        if address is not UNSET:
            field_dict["address"] = address
        if note is not UNSET:
            field_dict["note"] = note
        if proof is not UNSET:
            field_dict["proof"] = proof

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patched_trusted_attester_request_proof import PatchedTrustedAttesterRequestProof

        d = dict(src_dict)
        chain_id = d.pop("chainId", UNSET)

        address = d.pop("address", UNSET)

        note = d.pop("note", UNSET)

        _proof = d.pop("proof", UNSET)
        proof: PatchedTrustedAttesterRequestProof | Unset
        if isinstance(_proof, Unset):
            proof = UNSET
        else:
            proof = PatchedTrustedAttesterRequestProof.from_dict(_proof)

        patched_trusted_attester_request = cls(
            chain_id=chain_id,
            address=address,
            note=note,
            proof=proof,
        )

        return patched_trusted_attester_request
