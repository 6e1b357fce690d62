from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.monitoring import Monitoring
    from ..models.override import Override
    from ..models.uptime import Uptime


T = TypeVar("T", bound="RpcEndpoint")


@_attrs_define
class RpcEndpoint:
    """
    Attributes:
        id (int):
        chain_id (int):
        url (str): Shown with credentials masked as ***.
        status (str):
        probe_status (str):
        override (Override):
        latency_ms (float | None):
        head_block (int | None):
        lag_blocks (int | None):
        syncing (bool): eth_syncing said it is catching up.
        observed_chain_id (int | None): The chain id the endpoint last answered.
        consecutive_failures (int):
        consecutive_successes (int):
        last_checked_at (datetime.datetime | None):
        last_error (str):
        uptime (Uptime):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        provider (str | Unset):
        priority (int | Unset): Lower is tried first.
        monitoring (Monitoring | Unset):
    """

    id: int
    chain_id: int
    url: str
    status: str
    probe_status: str
    override: Override
    latency_ms: float | None
    head_block: int | None
    lag_blocks: int | None
    syncing: bool
    observed_chain_id: int | None
    consecutive_failures: int
    consecutive_successes: int
    last_checked_at: datetime.datetime | None
    last_error: str
    uptime: Uptime
    created_at: datetime.datetime
    updated_at: datetime.datetime
    provider: str | Unset = UNSET
    priority: int | Unset = UNSET
    monitoring: Monitoring | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        chain_id = self.chain_id

        url = self.url

        status = self.status

        probe_status = self.probe_status

        override = self.override.to_dict()

        latency_ms: float | None
        latency_ms = self.latency_ms

        head_block: int | None
        head_block = self.head_block

        lag_blocks: int | None
        lag_blocks = self.lag_blocks

        syncing = self.syncing

        observed_chain_id: int | None
        observed_chain_id = self.observed_chain_id

        consecutive_failures = self.consecutive_failures

        consecutive_successes = self.consecutive_successes

        last_checked_at: None | str
        if isinstance(self.last_checked_at, datetime.datetime):
            last_checked_at = self.last_checked_at.isoformat()
        else:
            last_checked_at = self.last_checked_at

        last_error = self.last_error

        uptime = self.uptime.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        provider = self.provider

        priority = self.priority

        monitoring: dict[str, Any] | Unset = UNSET
        if not isinstance(self.monitoring, Unset):
            monitoring = self.monitoring.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "chainId": chain_id,
                "url": url,
                "status": status,
                "probeStatus": probe_status,
                "override": override,
                "latencyMs": latency_ms,
                "headBlock": head_block,
                "lagBlocks": lag_blocks,
                "syncing": syncing,
                "observedChainId": observed_chain_id,
                "consecutiveFailures": consecutive_failures,
                "consecutiveSuccesses": consecutive_successes,
                "lastCheckedAt": last_checked_at,
                "lastError": last_error,
                "uptime": uptime,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if provider is not UNSET:
            field_dict["provider"] = provider
        if priority is not UNSET:
            field_dict["priority"] = priority
        if monitoring is not UNSET:
            field_dict["monitoring"] = monitoring

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.monitoring import Monitoring
        from ..models.override import Override
        from ..models.uptime import Uptime

        d = dict(src_dict)
        id = d.pop("id")

        chain_id = d.pop("chainId")

        url = d.pop("url")

        status = d.pop("status")

        probe_status = d.pop("probeStatus")

        override = Override.from_dict(d.pop("override"))

        def _parse_latency_ms(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        latency_ms = _parse_latency_ms(d.pop("latencyMs"))

        def _parse_head_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        head_block = _parse_head_block(d.pop("headBlock"))

        def _parse_lag_blocks(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        lag_blocks = _parse_lag_blocks(d.pop("lagBlocks"))

        syncing = d.pop("syncing")

        def _parse_observed_chain_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        observed_chain_id = _parse_observed_chain_id(d.pop("observedChainId"))

        consecutive_failures = d.pop("consecutiveFailures")

        consecutive_successes = d.pop("consecutiveSuccesses")

        def _parse_last_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_checked_at_type_0 = isoparse(data)

                return last_checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_checked_at = _parse_last_checked_at(d.pop("lastCheckedAt"))

        last_error = d.pop("lastError")

        uptime = Uptime.from_dict(d.pop("uptime"))

        created_at = isoparse(d.pop("createdAt"))

        updated_at = isoparse(d.pop("updatedAt"))

        provider = d.pop("provider", UNSET)

        priority = d.pop("priority", UNSET)

        _monitoring = d.pop("monitoring", UNSET)
        monitoring: Monitoring | Unset
        if isinstance(_monitoring, Unset):
            monitoring = UNSET
        else:
            monitoring = Monitoring.from_dict(_monitoring)

        rpc_endpoint = cls(
            id=id,
            chain_id=chain_id,
            url=url,
            status=status,
            probe_status=probe_status,
            override=override,
            latency_ms=latency_ms,
            head_block=head_block,
            lag_blocks=lag_blocks,
            syncing=syncing,
            observed_chain_id=observed_chain_id,
            consecutive_failures=consecutive_failures,
            consecutive_successes=consecutive_successes,
            last_checked_at=last_checked_at,
            last_error=last_error,
            uptime=uptime,
            created_at=created_at,
            updated_at=updated_at,
            provider=provider,
            priority=priority,
            monitoring=monitoring,
        )

        rpc_endpoint.additional_properties = d
        return rpc_endpoint

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
