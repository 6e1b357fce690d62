from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.kind_enum import KindEnum, check_kind_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeploymentRequest")


@_attrs_define
class DeploymentRequest:
    """
    Attributes:
        chain_id (int):
        contract_version (int):
        address (str):  Example: 0xabababababababababababababababababababab.
        start_block (int | Unset): Block to index from.
        tx_hash (None | str | Unset):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        kind (KindEnum | Unset): * `eas` - EAS
            * `schema_registry` - Schema registry
            * `other` - Other
    """

    chain_id: int
    contract_version: int
    address: str
    start_block: int | Unset = UNSET
    tx_hash: None | str | Unset = UNSET
    kind: KindEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        contract_version = self.contract_version

        address = self.address

        start_block = self.start_block

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chainId": chain_id,
                "contractVersion": contract_version,
                "address": address,
            }
        )
        if start_block is not UNSET:
            field_dict["startBlock"] = start_block
        if tx_hash is not UNSET:
            field_dict["txHash"] = tx_hash
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain_id = d.pop("chainId")

        contract_version = d.pop("contractVersion")

        address = d.pop("address")

        start_block = d.pop("startBlock", UNSET)

        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("txHash", UNSET))

        _kind = d.pop("kind", UNSET)
        kind: KindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = check_kind_enum(_kind)

        deployment_request = cls(
            chain_id=chain_id,
            contract_version=contract_version,
            address=address,
            start_block=start_block,
            tx_hash=tx_hash,
            kind=kind,
        )

        return deployment_request
