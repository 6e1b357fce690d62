from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.heartbeat_status_enum import HeartbeatStatusEnum, check_heartbeat_status_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="HeartbeatRequest")


@_attrs_define
class HeartbeatRequest:
    """
    Attributes:
        executor_id (UUID):
        status (HeartbeatStatusEnum): * `busy` - busy
            * `draining` - draining
            * `ok` - ok
        pending_jobs (int | None | Unset):
        head_block (int | None | Unset):
    """

    executor_id: UUID
    status: HeartbeatStatusEnum
    pending_jobs: int | None | Unset = UNSET
    head_block: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        status: str = self.status

        pending_jobs: int | None | Unset
        if isinstance(self.pending_jobs, Unset):
            pending_jobs = UNSET
        else:
            pending_jobs = self.pending_jobs

        head_block: int | None | Unset
        if isinstance(self.head_block, Unset):
            head_block = UNSET
        else:
            head_block = self.head_block

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "executorId": executor_id,
                "status": status,
            }
        )
        if pending_jobs is not UNSET:
            field_dict["pendingJobs"] = pending_jobs
        if head_block is not UNSET:
            field_dict["headBlock"] = head_block

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        status = check_heartbeat_status_enum(d.pop("status"))

        def _parse_pending_jobs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pending_jobs = _parse_pending_jobs(d.pop("pendingJobs", UNSET))

        def _parse_head_block(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        head_block = _parse_head_block(d.pop("headBlock", UNSET))

        heartbeat_request = cls(
            executor_id=executor_id,
            status=status,
            pending_jobs=pending_jobs,
            head_block=head_block,
        )

        return heartbeat_request
