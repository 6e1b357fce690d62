from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="VerifyRequest")


@_attrs_define
class VerifyRequest:
    """
    Attributes:
        document_hash (str): The document's hash, 0x + 64 hex digits: the hash of the file's bytes, SHA-256 by default,
            keccak-256 also accepted (`GET /chains` lists each chain's `documentHashAlgorithms`, the default first).
            Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        chain_id (int | None | Unset): Only look on this chain.
        live (bool | Unset): Re-read the attestation from the chain before answering (slower; 503 when the chain's RPC
            endpoints do not answer). Default: False.
        proof (list[str] | Unset): A Merkle proof the holder has for the document (OpenZeppelin StandardMerkleTree, leaf
            encoding ["bytes32"]): the answer is then that proof's, verified when it leads to the root of a batch bound here
            whose attestation passes the rules, else `invalid_proof`. Not with `live`.
        merkle_root (str | Unset): The root `proof` must lead to (with `proof` only). Example:
            0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
    """

    document_hash: str
    chain_id: int | None | Unset = UNSET
    live: bool | Unset = False
    proof: list[str] | Unset = UNSET
    merkle_root: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_hash = self.document_hash

        chain_id: int | None | Unset
        if isinstance(self.chain_id, Unset):
            chain_id = UNSET
        else:
            chain_id = self.chain_id

        live = self.live

        proof: list[str] | Unset = UNSET
        if not isinstance(self.proof, Unset):
            proof = self.proof

        merkle_root = self.merkle_root

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentHash": document_hash,
            }
        )
        if chain_id is not UNSET:
            field_dict["chainId"] = chain_id
        if live is not UNSET:
            field_dict["live"] = live
        if proof is not UNSET:
            field_dict["proof"] = proof
        if merkle_root is not UNSET:
            field_dict["merkleRoot"] = merkle_root

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_hash = d.pop("documentHash")

        def _parse_chain_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chain_id = _parse_chain_id(d.pop("chainId", UNSET))

        live = d.pop("live", UNSET)

        proof = cast(list[str], d.pop("proof", UNSET))

        merkle_root = d.pop("merkleRoot", UNSET)

        verify_request = cls(
            document_hash=document_hash,
            chain_id=chain_id,
            live=live,
            proof=proof,
            merkle_root=merkle_root,
        )

        return verify_request
