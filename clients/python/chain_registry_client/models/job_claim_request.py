from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobClaimRequest")


@_attrs_define
class JobClaimRequest:
    """
    Attributes:
        executor_id (UUID):
        limit (int | Unset): Claim up to this many jobs (1 to 500); the answer is then `{"jobs": [...]}` (an empty list
            when none is queued). Without it: one job, or 204.
    """

    executor_id: UUID
    limit: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "executorId": executor_id,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        limit = d.pop("limit", UNSET)

        job_claim_request = cls(
            executor_id=executor_id,
            limit=limit,
        )

        return job_claim_request
