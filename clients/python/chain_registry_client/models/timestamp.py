from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

T = TypeVar("T", bound="Timestamp")


@_attrs_define
class Timestamp:
    """
    Attributes:
        data (str): The timestamped bytes32 (0x-hex): an offchain attestation's uid, a document hash, ...
        chain_id (int):
        timestamp (datetime.datetime): The time the chain gave it (its block's).
        tx_hash (str): The transaction that emitted the record's event.
        block_number (int):
        confirmations (int): Blocks from the record's block to the chain's head as the indexer last saw it, that block
            included; compare with the chain's `confirmations`.
    """

    data: str
    chain_id: int
    timestamp: datetime.datetime
    tx_hash: str
    block_number: int
    confirmations: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data

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

        chain_id = d.pop("chainId")

        timestamp = isoparse(d.pop("timestamp"))

        tx_hash = d.pop("txHash")

        block_number = d.pop("blockNumber")

        confirmations = d.pop("confirmations")

        timestamp = cls(
            data=data,
            chain_id=chain_id,
            timestamp=timestamp,
            tx_hash=tx_hash,
            block_number=block_number,
            confirmations=confirmations,
        )

        timestamp.additional_properties = d
        return timestamp

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
