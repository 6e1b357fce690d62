from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

T = TypeVar("T", bound="OffchainRevocation")


@_attrs_define
class OffchainRevocation:
    """
    Attributes:
        data (str): The revoked offchain attestation's uid (0x-hex).
        revoker (str): Who revoked it: only the attester's own revocation counts for its attestation.
        chain_id (int):
        timestamp (datetime.datetime): When the chain recorded the revocation.
        tx_hash (str): The transaction that emitted the record's event.
        block_number (int):
        confirmations (int): Blocks from the record's block to the chain's head as the indexer last saw it, that block
            included; compare with the chain's `confirmations`.
    """

    data: str
    revoker: str
    chain_id: int
    timestamp: datetime.datetime
    tx_hash: str
    block_number: int
    confirmations: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        revoker = self.revoker

        chain_id = self.chain_id

        timestamp = self.timestamp.isoformat()

        tx_hash = self.tx_hash

        block_number = self.block_number

        confirmations = self.confirmations

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "revoker": revoker,
                "chainId": chain_id,
                "timestamp": timestamp,
                "txHash": tx_hash,
                "blockNumber": block_number,
                "confirmations": confirmations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        revoker = d.pop("revoker")

        chain_id = d.pop("chainId")

        timestamp = isoparse(d.pop("timestamp"))

        tx_hash = d.pop("txHash")

        block_number = d.pop("blockNumber")

        confirmations = d.pop("confirmations")

        offchain_revocation = cls(
            data=data,
            revoker=revoker,
            chain_id=chain_id,
            timestamp=timestamp,
            tx_hash=tx_hash,
            block_number=block_number,
            confirmations=confirmations,
        )

        offchain_revocation.additional_properties = d
        return offchain_revocation

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
