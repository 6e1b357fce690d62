from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_create_request_data import WorkflowCreateRequestData


T = TypeVar("T", bound="WorkflowCreateRequest")


@_attrs_define
class WorkflowCreateRequest:
    """
    Attributes:
        document_hash (str): The document's hash, 0x + 64 hex digits: the hash of the file's bytes, SHA-256 by default,
            keccak-256 also accepted (`GET /chains` lists each chain's `documentHashAlgorithms`, the default first).
            Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        chain_id (int):
        schema_id (str | Unset): Defaults to the chain's document schema (`bytes32 documentHash`). Example:
            0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        data (WorkflowCreateRequestData | Unset): Values of the schema's other fields, by name.
    """

    document_hash: str
    chain_id: int
    schema_id: str | Unset = UNSET
    data: WorkflowCreateRequestData | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        document_hash = self.document_hash

        chain_id = self.chain_id

        schema_id = self.schema_id

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documentHash": document_hash,
                "chainId": chain_id,
            }
        )
        if schema_id is not UNSET:
            field_dict["schemaId"] = schema_id
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_create_request_data import WorkflowCreateRequestData

        d = dict(src_dict)
        document_hash = d.pop("documentHash")

        chain_id = d.pop("chainId")

        schema_id = d.pop("schemaId", UNSET)

        _data = d.pop("data", UNSET)
        data: WorkflowCreateRequestData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = WorkflowCreateRequestData.from_dict(_data)

        workflow_create_request = cls(
            document_hash=document_hash,
            chain_id=chain_id,
            schema_id=schema_id,
            data=data,
        )

        return workflow_create_request
