from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.workflow_state_enum import WorkflowStateEnum, check_workflow_state_enum

T = TypeVar("T", bound="WorkflowBatchItem")


@_attrs_define
class WorkflowBatchItem:
    """
    Attributes:
        workflow_id (UUID):
        chain_id (int):
        document_hash (str):
        schema_id (str):
        data (Any): Values of the schema's other fields.
        state (WorkflowStateEnum): * `received` - Received
            * `queued` - Queued
            * `dispatched` - Dispatched
            * `submitted` - Submitted
            * `confirmed` - Confirmed
            * `failed` - Failed
            * `expired` - Expired
        attempts (int): Claims handed out so far.
        available_at (datetime.datetime): Not claimable before (back-off of a retry).
        deadline (datetime.datetime): Expires when nobody has claimed it by then.
        executor_id (None | UUID):
        tx_hash (None | str):
        tx_hashes (Any): Every candidate transaction ever reported.
        block_number (int | None):
        attestation_uid (None | str):
        last_error (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        confirmed_at (datetime.datetime | None):
        created (bool): Whether this request created it (false: a repeat of the request under the same Idempotency-Key
            found it).
    """

    workflow_id: UUID
    chain_id: int
    document_hash: str
    schema_id: str
    data: Any
    state: WorkflowStateEnum
    attempts: int
    available_at: datetime.datetime
    deadline: datetime.datetime
    executor_id: None | UUID
    tx_hash: None | str
    tx_hashes: Any
    block_number: int | None
    attestation_uid: None | str
    last_error: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    confirmed_at: datetime.datetime | None
    created: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workflow_id = str(self.workflow_id)

        chain_id = self.chain_id

        document_hash = self.document_hash

        schema_id = self.schema_id

        data = self.data

        state: str = self.state

        attempts = self.attempts

        available_at = self.available_at.isoformat()

        deadline = self.deadline.isoformat()

        executor_id: None | str
        if isinstance(self.executor_id, UUID):
            executor_id = str(self.executor_id)
        else:
            executor_id = self.executor_id

        tx_hash: None | str
        tx_hash = self.tx_hash

        tx_hashes = self.tx_hashes

        block_number: int | None
        block_number = self.block_number

        attestation_uid: None | str
        attestation_uid = self.attestation_uid

        last_error = self.last_error

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        confirmed_at: None | str
        if isinstance(self.confirmed_at, datetime.datetime):
            confirmed_at = self.confirmed_at.isoformat()
        else:
            confirmed_at = self.confirmed_at

        created = self.created

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workflowId": workflow_id,
                "chainId": chain_id,
                "documentHash": document_hash,
                "schemaId": schema_id,
                "data": data,
                "state": state,
                "attempts": attempts,
                "availableAt": available_at,
                "deadline": deadline,
                "executorId": executor_id,
                "txHash": tx_hash,
                "txHashes": tx_hashes,
                "blockNumber": block_number,
                "attestationUid": attestation_uid,
                "lastError": last_error,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "confirmedAt": confirmed_at,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workflow_id = UUID(d.pop("workflowId"))

        chain_id = d.pop("chainId")

        document_hash = d.pop("documentHash")

        schema_id = d.pop("schemaId")

        data = d.pop("data")

        state = check_workflow_state_enum(d.pop("state"))

        attempts = d.pop("attempts")

        available_at = isoparse(d.pop("availableAt"))

        deadline = isoparse(d.pop("deadline"))

        def _parse_executor_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                executor_id_type_0 = UUID(data)

                return executor_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        executor_id = _parse_executor_id(d.pop("executorId"))

        def _parse_tx_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tx_hash = _parse_tx_hash(d.pop("txHash"))

        tx_hashes = d.pop("txHashes")

        def _parse_block_number(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_number = _parse_block_number(d.pop("blockNumber"))

        def _parse_attestation_uid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attestation_uid = _parse_attestation_uid(d.pop("attestationUid"))

        last_error = d.pop("lastError")

        created_at = isoparse(d.pop("createdAt"))

        updated_at = isoparse(d.pop("updatedAt"))

        def _parse_confirmed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confirmed_at_type_0 = isoparse(data)

                return confirmed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        confirmed_at = _parse_confirmed_at(d.pop("confirmedAt"))

        created = d.pop("created")

        workflow_batch_item = cls(
            workflow_id=workflow_id,
            chain_id=chain_id,
            document_hash=document_hash,
            schema_id=schema_id,
            data=data,
            state=state,
            attempts=attempts,
            available_at=available_at,
            deadline=deadline,
            executor_id=executor_id,
            tx_hash=tx_hash,
            tx_hashes=tx_hashes,
            block_number=block_number,
            attestation_uid=attestation_uid,
            last_error=last_error,
            created_at=created_at,
            updated_at=updated_at,
            confirmed_at=confirmed_at,
            created=created,
        )

        workflow_batch_item.additional_properties = d
        return workflow_batch_item

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
