from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedContractVersionRequest")


@_attrs_define
class PatchedContractVersionRequest:
    """
    Attributes:
        contract_name (str | Unset):
        version (str | Unset): Semantic version, e.g. 1.4.0
        abi (Any | Unset):
        compiler_version (str | Unset):
    """

    contract_name: str | Unset = UNSET
    version: str | Unset = UNSET
    abi: Any | Unset = UNSET
    compiler_version: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        contract_name = self.contract_name

        version = self.version

        abi = self.abi

        compiler_version = self.compiler_version

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if contract_name is not UNSET:
            field_dict["contractName"] = contract_name
        if version is not UNSET:
            field_dict["version"] = version
        if abi is not UNSET:
            field_dict["abi"] = abi
        if compiler_version is not UNSET:
            field_dict["compilerVersion"] = compiler_version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        contract_name = d.pop("contractName", UNSET)

        version = d.pop("version", UNSET)

        abi = d.pop("abi", UNSET)

        compiler_version = d.pop("compilerVersion", UNSET)

        patched_contract_version_request = cls(
            contract_name=contract_name,
            version=version,
            abi=abi,
            compiler_version=compiler_version,
        )

        return patched_contract_version_request
