from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobResultRequest")


@_attrs_define
class JobResultRequest:
    """
    Attributes:
        executor_id (UUID):
        tx_hash (str | Unset):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        error (str | Unset):
    """

    executor_id: UUID
    tx_hash: str | Unset = UNSET
    error: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        tx_hash = self.tx_hash

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "executorId": executor_id,
            }
        )
        if tx_hash is not UNSET:
            field_dict["txHash"] = tx_hash
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        tx_hash = d.pop("txHash", UNSET)

        error = d.pop("error", UNSET)

        job_result_request = cls(
            executor_id=executor_id,
            tx_hash=tx_hash,
            error=error,
        )

        return job_result_request
