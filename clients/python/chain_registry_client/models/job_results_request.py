from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.job_result_item_request import JobResultItemRequest


T = TypeVar("T", bound="JobResultsRequest")


@_attrs_define
class JobResultsRequest:
    """
    Attributes:
        executor_id (UUID):
        results (list[JobResultItemRequest]): 1 to 500 results, each for another job of this executor.
    """

    executor_id: UUID
    results: list[JobResultItemRequest]

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "executorId": executor_id,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_result_item_request import JobResultItemRequest

        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = JobResultItemRequest.from_dict(results_item_data)

            results.append(results_item)

        job_results_request = cls(
            executor_id=executor_id,
            results=results,
        )

        return job_results_request
