from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum, check_kind_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PublicDeployment")


@_attrs_define
class PublicDeployment:
    """
    Attributes:
        address (str): 0x + 40 hex digits (EIP-55 checksum when mixed case)
        contract_name (str):
        version (str):
        kind (KindEnum | Unset): * `eas` - EAS
            * `schema_registry` - Schema registry
            * `other` - Other
        start_block (int | Unset): Block to index from.
    """

    address: str
    contract_name: str
    version: str
    kind: KindEnum | Unset = UNSET
    start_block: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        contract_name = self.contract_name

        version = self.version

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind

        start_block = self.start_block

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "address": address,
                "contractName": contract_name,
                "version": version,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if start_block is not UNSET:
            field_dict["startBlock"] = start_block

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        contract_name = d.pop("contractName")

        version = d.pop("version")

        _kind = d.pop("kind", UNSET)
        kind: KindEnum | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = check_kind_enum(_kind)

        start_block = d.pop("startBlock", UNSET)

        public_deployment = cls(
            address=address,
            contract_name=contract_name,
            version=version,
            kind=kind,
            start_block=start_block,
        )

        public_deployment.additional_properties = d
        return public_deployment

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
