from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.binding_mode_enum import BindingModeEnum, check_binding_mode_enum

if TYPE_CHECKING:
    from ..models.job_data import JobData


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """A workflow as its executor needs it: what to attest, where, and by when.

    Attributes:
        workflow_id (UUID):
        chain_id (int):
        document_hash (str):
        schema_id (str):
        schema (str): The EAS schema string.
        data (JobData):
        encoded_data (str): The attestation data, ABI-encoded.
        eas_address (None | str): The chain's EAS deployment to attest with.
        revocable (bool): Whether to attest revocably (as the schema says).
        attempt (int):
        dispatched_at (datetime.datetime):
        binding_mode (BindingModeEnum): * `single` - Single
            * `multi` - Multi
            * `merkle` - Merkle
        root_schema_id (None | str): With `merkle`: the chain's root schema (`bytes32 merkleRoot`) to attest the root
            under; null otherwise.
    """

    workflow_id: UUID
    chain_id: int
    document_hash: str
    schema_id: str
    schema: str
    data: JobData
    encoded_data: str
    eas_address: None | str
    revocable: bool
    attempt: int
    dispatched_at: datetime.datetime
    binding_mode: BindingModeEnum
    root_schema_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workflow_id = str(self.workflow_id)

        chain_id = self.chain_id

        document_hash = self.document_hash

        schema_id = self.schema_id

        schema = self.schema

        data = self.data.to_dict()

        encoded_data = self.encoded_data

        eas_address: None | str
        eas_address = self.eas_address

        revocable = self.revocable

        attempt = self.attempt

        dispatched_at = self.dispatched_at.isoformat()

        binding_mode: str = self.binding_mode

        root_schema_id: None | str
        root_schema_id = self.root_schema_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workflowId": workflow_id,
                "chainId": chain_id,
                "documentHash": document_hash,
                "schemaId": schema_id,
                "schema": schema,
                "data": data,
                "encodedData": encoded_data,
                "easAddress": eas_address,
                "revocable": revocable,
                "attempt": attempt,
                "dispatchedAt": dispatched_at,
                "bindingMode": binding_mode,
                "rootSchemaId": root_schema_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_data import JobData

        d = dict(src_dict)
        workflow_id = UUID(d.pop("workflowId"))

        chain_id = d.pop("chainId")

        document_hash = d.pop("documentHash")

        schema_id = d.pop("schemaId")

        schema = d.pop("schema")

        data = JobData.from_dict(d.pop("data"))

        encoded_data = d.pop("encodedData")

        def _parse_eas_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        eas_address = _parse_eas_address(d.pop("easAddress"))

        revocable = d.pop("revocable")

        attempt = d.pop("attempt")

        dispatched_at = isoparse(d.pop("dispatchedAt"))

        binding_mode = check_binding_mode_enum(d.pop("bindingMode"))

        def _parse_root_schema_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        root_schema_id = _parse_root_schema_id(d.pop("rootSchemaId"))

        job = cls(
            workflow_id=workflow_id,
            chain_id=chain_id,
            document_hash=document_hash,
            schema_id=schema_id,
            schema=schema,
            data=data,
            encoded_data=encoded_data,
            eas_address=eas_address,
            revocable=revocable,
            attempt=attempt,
            dispatched_at=dispatched_at,
            binding_mode=binding_mode,
            root_schema_id=root_schema_id,
        )

        job.additional_properties = d
        return job

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
