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
        status (HeartbeatStatusEnum): * `blocked_by_fees` - blocked_by_fees
            * `busy` - busy
            * `draining` - draining
            * `low_funds` - low_funds
            * `ok` - ok
            * `signer_error` - signer_error
        pending_jobs (int | None | Unset):
        head_block (int | None | Unset):
        balance_wei (None | str | Unset): The executor's balance on the chain, in wei. Example: 1500000000000000000.
    """

    executor_id: UUID
    status: HeartbeatStatusEnum
    pending_jobs: int | None | Unset = UNSET
    head_block: int | None | Unset = UNSET
    balance_wei: None | str | Unset = UNSET

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

        balance_wei: None | str | Unset
        if isinstance(self.balance_wei, Unset):
            balance_wei = UNSET
        else:
            balance_wei = self.balance_wei

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
        if balance_wei is not UNSET:
            field_dict["balanceWei"] = balance_wei

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

        def _parse_balance_wei(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        balance_wei = _parse_balance_wei(d.pop("balanceWei", UNSET))

        heartbeat_request = cls(
            executor_id=executor_id,
            status=status,
            pending_jobs=pending_jobs,
            head_block=head_block,
            balance_wei=balance_wei,
        )

        return heartbeat_request
