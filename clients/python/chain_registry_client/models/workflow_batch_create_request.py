from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.workflow_create_request import WorkflowCreateRequest


T = TypeVar("T", bound="WorkflowBatchCreateRequest")


@_attrs_define
class WorkflowBatchCreateRequest:
    """
    Attributes:
        workflows (list[WorkflowCreateRequest]): 1 to 1000 binding requests, each as `POST /workflows` takes it; a
            refused one is named by its index (`workflows.3.documentHash`).
    """

    workflows: list[WorkflowCreateRequest]

    def to_dict(self) -> dict[str, Any]:
        workflows = []
        for workflows_item_data in self.workflows:
            workflows_item = workflows_item_data.to_dict()
            workflows.append(workflows_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflows": workflows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_create_request import WorkflowCreateRequest

        d = dict(src_dict)
        workflows = []
        _workflows = d.pop("workflows")
        for workflows_item_data in _workflows:
            workflows_item = WorkflowCreateRequest.from_dict(workflows_item_data)

            workflows.append(workflows_item)

        workflow_batch_create_request = cls(
            workflows=workflows,
        )

        return workflow_batch_create_request
