from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workflow_state_enum import WorkflowStateEnum, check_workflow_state_enum

T = TypeVar("T", bound="JobResultResponse")


@_attrs_define
class JobResultResponse:
    """
    Attributes:
        workflow_id (UUID):
        state (WorkflowStateEnum): * `received` - Received
            * `queued` - Queued
            * `dispatched` - Dispatched
            * `submitted` - Submitted
            * `confirmed` - Confirmed
            * `failed` - Failed
            * `expired` - Expired
        tx_hash (str):
        attempts (int):
    """

    workflow_id: UUID
    state: WorkflowStateEnum
    tx_hash: str
    attempts: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workflow_id = str(self.workflow_id)

        state: str = self.state

        tx_hash = self.tx_hash

        attempts = self.attempts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workflowId": workflow_id,
                "state": state,
                "txHash": tx_hash,
                "attempts": attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workflow_id = UUID(d.pop("workflowId"))

        state = check_workflow_state_enum(d.pop("state"))

        tx_hash = d.pop("txHash")

        attempts = d.pop("attempts")

        job_result_response = cls(
            workflow_id=workflow_id,
            state=state,
            tx_hash=tx_hash,
            attempts=attempts,
        )

        job_result_response.additional_properties = d
        return job_result_response

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
