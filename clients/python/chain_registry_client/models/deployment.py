from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.kind_enum import KindEnum, check_kind_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Deployment")


@_attrs_define
class Deployment:
    """
    Attributes:
        id (int):
        chain_id (int):
        contract_version (int):
        contract_name (str):
        address (str):  Example: 0xabababababababababababababababababababab.
        created_at (datetime.datetime):
        start_block (int | Unset): Block to index from.
        tx_hash (None | str | Unset):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        kind (KindEnum | Unset): * `eas` - EAS
            * `schema_registry` - Schema registry
            * `other` - Other
    """

    id: int
    chain_id: int
    contract_version: int
    contract_name: str
    address: str
    created_at: datetime.datetime
    start_block: int | Unset = UNSET
    tx_hash: None | str | Unset = UNSET
    kind: KindEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        chain_id = self.chain_id

        contract_version = self.contract_version

        contract_name = self.contract_name

        address = self.address

        created_at = self.created_at.isoformat()

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "chainId": chain_id,
                "contractVersion": contract_version,
                "contractName": contract_name,
                "address": address,
                "createdAt": created_at,
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
        id = d.pop("id")

        chain_id = d.pop("chainId")

        contract_version = d.pop("contractVersion")

        contract_name = d.pop("contractName")

        address = d.pop("address")

        created_at = isoparse(d.pop("createdAt"))

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

        deployment = cls(
            id=id,
            chain_id=chain_id,
            contract_version=contract_version,
            contract_name=contract_name,
            address=address,
            created_at=created_at,
            start_block=start_block,
            tx_hash=tx_hash,
            kind=kind,
        )

        deployment.additional_properties = d
        return deployment

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
