from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="JobClaimRequest")


@_attrs_define
class JobClaimRequest:
    """
    Attributes:
        executor_id (UUID):
    """

    executor_id: UUID

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "executorId": executor_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        job_claim_request = cls(
            executor_id=executor_id,
        )

        return job_claim_request
