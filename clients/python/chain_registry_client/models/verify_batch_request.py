from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="VerifyBatchRequest")


@_attrs_define
class VerifyBatchRequest:
    """
    Attributes:
        document_hashes (list[str]): 1 to 1000 document hashes (The document's hash, 0x + 64 hex digits: the hash of the
            file's bytes, SHA-256 by default, keccak-256 also accepted (`GET /chains` lists each chain's
            `documentHashAlgorithms`, the default first).). A malformed one is named by its index (`documentHashes.3`); a
            repeated one is answered once.
        chain_id (int | None | Unset): Only look on this chain, for every document.
    """

    document_hashes: list[str]
    chain_id: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_hashes = self.document_hashes

        chain_id: int | None | Unset
        if isinstance(self.chain_id, Unset):
            chain_id = UNSET
        else:
            chain_id = self.chain_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentHashes": document_hashes,
            }
        )
        if chain_id is not UNSET:
            field_dict["chainId"] = chain_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_hashes = cast(list[str], d.pop("documentHashes"))

        def _parse_chain_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chain_id = _parse_chain_id(d.pop("chainId", UNSET))

        verify_batch_request = cls(
            document_hashes=document_hashes,
            chain_id=chain_id,
        )

        return verify_batch_request
