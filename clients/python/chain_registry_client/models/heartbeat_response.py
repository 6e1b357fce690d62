from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.executor_status_enum import ExecutorStatusEnum, check_executor_status_enum

T = TypeVar("T", bound="HeartbeatResponse")


@_attrs_define
class HeartbeatResponse:
    """
    Attributes:
        status (ExecutorStatusEnum): * `healthy` - Healthy
            * `stale` - Stale
            * `offline` - Offline
            * `draining` - Draining
            * `deregistered` - Deregistered
            * `low_funds` - Low Funds
            * `blocked_by_fees` - Blocked By Fees
            * `signer_error` - Signer Error
        lease_expires_at (datetime.datetime):
        heartbeat_interval_seconds (int):
        max_fee_per_gas_cap (None | str): The most to offer per gas, in wei; null: no cap. Example: 1500000000000000000.
        replace_after_blocks (int): Blocks to wait for a transaction before replacing it with higher fees.
        low_funds_batches (int): Report low_funds below the balance that pays for this many batches.
    """

    status: ExecutorStatusEnum
    lease_expires_at: datetime.datetime
    heartbeat_interval_seconds: int
    max_fee_per_gas_cap: None | str
    replace_after_blocks: int
    low_funds_batches: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        lease_expires_at = self.lease_expires_at.isoformat()

        heartbeat_interval_seconds = self.heartbeat_interval_seconds

        max_fee_per_gas_cap: None | str
        max_fee_per_gas_cap = self.max_fee_per_gas_cap

        replace_after_blocks = self.replace_after_blocks

        low_funds_batches = self.low_funds_batches

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "leaseExpiresAt": lease_expires_at,
                "heartbeatIntervalSeconds": heartbeat_interval_seconds,
                "maxFeePerGasCap": max_fee_per_gas_cap,
                "replaceAfterBlocks": replace_after_blocks,
                "lowFundsBatches": low_funds_batches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = check_executor_status_enum(d.pop("status"))

        lease_expires_at = isoparse(d.pop("leaseExpiresAt"))

        heartbeat_interval_seconds = d.pop("heartbeatIntervalSeconds")

        def _parse_max_fee_per_gas_cap(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        max_fee_per_gas_cap = _parse_max_fee_per_gas_cap(d.pop("maxFeePerGasCap"))

        replace_after_blocks = d.pop("replaceAfterBlocks")

        low_funds_batches = d.pop("lowFundsBatches")

        heartbeat_response = cls(
            status=status,
            lease_expires_at=lease_expires_at,
            heartbeat_interval_seconds=heartbeat_interval_seconds,
            max_fee_per_gas_cap=max_fee_per_gas_cap,
            replace_after_blocks=replace_after_blocks,
            low_funds_batches=low_funds_batches,
        )

        heartbeat_response.additional_properties = d
        return heartbeat_response

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
