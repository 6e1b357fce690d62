from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.interface import Interface


T = TypeVar("T", bound="ContractVersion")


@_attrs_define
class ContractVersion:
    """
    Attributes:
        id (int):
        contract_name (str):
        version (str): Semantic version, e.g. 1.4.0
        abi (Any):
        created_at (datetime.datetime):
        interface (Interface):
        compiler_version (str | Unset):
    """

    id: int
    contract_name: str
    version: str
    abi: Any
    created_at: datetime.datetime
    interface: Interface
    compiler_version: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        contract_name = self.contract_name

        version = self.version

        abi = self.abi

        created_at = self.created_at.isoformat()

        interface = self.interface.to_dict()

        compiler_version = self.compiler_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "contractName": contract_name,
                "version": version,
                "abi": abi,
                "createdAt": created_at,
                "interface": interface,
            }
        )
        if compiler_version is not UNSET:
            field_dict["compilerVersion"] = compiler_version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.interface import Interface

        d = dict(src_dict)
        id = d.pop("id")

        contract_name = d.pop("contractName")

        version = d.pop("version")

        abi = d.pop("abi")

        created_at = isoparse(d.pop("createdAt"))

        interface = Interface.from_dict(d.pop("interface"))

        compiler_version = d.pop("compilerVersion", UNSET)

        contract_version = cls(
            id=id,
            contract_name=contract_name,
            version=version,
            abi=abi,
            created_at=created_at,
            interface=interface,
            compiler_version=compiler_version,
        )

        contract_version.additional_properties = d
        return contract_version

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
