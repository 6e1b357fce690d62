from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ContractVersionRequest")


@_attrs_define
class ContractVersionRequest:
    """
    Attributes:
        contract_name (str):
        version (str): Semantic version, e.g. 1.4.0
        abi (Any):
        compiler_version (str | Unset):
    """

    contract_name: str
    version: str
    abi: Any
    compiler_version: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contract_name = self.contract_name

        version = self.version

        abi = self.abi

        compiler_version = self.compiler_version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contractName": contract_name,
                "version": version,
                "abi": abi,
            }
        )
        if compiler_version is not UNSET:
            field_dict["compilerVersion"] = compiler_version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        contract_name = d.pop("contractName")

        version = d.pop("version")

        abi = d.pop("abi")

        compiler_version = d.pop("compilerVersion", UNSET)

        contract_version_request = cls(
            contract_name=contract_name,
            version=version,
            abi=abi,
            compiler_version=compiler_version,
        )

        return contract_version_request
