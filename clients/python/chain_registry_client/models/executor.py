from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.executor_status_enum import ExecutorStatusEnum, check_executor_status_enum
from ..models.trust_enum import TrustEnum, check_trust_enum

T = TypeVar("T", bound="Executor")


@_attrs_define
class Executor:
    """
    Attributes:
        executor_id (UUID):
        chain_id (int):
        address (str): 0x + 40 lowercase hex digits
        name (str):
        endpoint_url (str):
        version (str):
        capabilities (Any):
        metadata (Any):
        status (ExecutorStatusEnum): * `healthy` - Healthy
            * `stale` - Stale
            * `offline` - Offline
            * `draining` - Draining
            * `deregistered` - Deregistered
            * `low_funds` - Low Funds
            * `blocked_by_fees` - Blocked By Fees
            * `signer_error` - Signer Error
        trusted (bool):
        trust (TrustEnum): * `trusted` - Trusted
            * `pending` - Pending
            * `revoked` - Revoked
        trust_basis (str): What made it trusted, last time it was: `approval`, `allow_list`, `automatic` or `admin_key`
            (empty: never trusted).
        trusted_at (datetime.datetime | None): When it was last made trusted.
        trust_revoked_at (datetime.datetime | None): Set while it is not trusted: from its registration until it is
            approved (unless its key's allow-list or its chain's policy trusted it), or since its trust was revoked.
        trust_changed_by (str): Who last approved or revoked its trust: an admin key's prefix, user:<name>, or the
            service (a revoked key).
        trust_reason (str): Why its trust last changed.
        registered_by (str): The prefix of the key that speaks for it.
        pending_jobs (int | None):
        head_block (int | None):
        balance_wei (None | str): Its balance in wei, as its last heartbeat said. Example: 1500000000000000000.
        heartbeat_interval_seconds (int):
        lease_expires_at (datetime.datetime):
        last_heartbeat_at (datetime.datetime | None):
        registered_at (datetime.datetime):
        status_changed_at (datetime.datetime):
    """

    executor_id: UUID
    chain_id: int
    address: str
    name: str
    endpoint_url: str
    version: str
    capabilities: Any
    metadata: Any
    status: ExecutorStatusEnum
    trusted: bool
    trust: TrustEnum
    trust_basis: str
    trusted_at: datetime.datetime | None
    trust_revoked_at: datetime.datetime | None
    trust_changed_by: str
    trust_reason: str
    registered_by: str
    pending_jobs: int | None
    head_block: int | None
    balance_wei: None | str
    heartbeat_interval_seconds: int
    lease_expires_at: datetime.datetime
    last_heartbeat_at: datetime.datetime | None
    registered_at: datetime.datetime
    status_changed_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        executor_id = str(self.executor_id)

        chain_id = self.chain_id

        address = self.address

        name = self.name

        endpoint_url = self.endpoint_url

        version = self.version

        capabilities = self.capabilities

        metadata = self.metadata

        status: str = self.status

        trusted = self.trusted

        trust: str = self.trust

        trust_basis = self.trust_basis

        trusted_at: None | str
        if isinstance(self.trusted_at, datetime.datetime):
            trusted_at = self.trusted_at.isoformat()
        else:
            trusted_at = self.trusted_at

        trust_revoked_at: None | str
        if isinstance(self.trust_revoked_at, datetime.datetime):
            trust_revoked_at = self.trust_revoked_at.isoformat()
        else:
            trust_revoked_at = self.trust_revoked_at

        trust_changed_by = self.trust_changed_by

        trust_reason = self.trust_reason

        registered_by = self.registered_by

        pending_jobs: int | None
        pending_jobs = self.pending_jobs

        head_block: int | None
        head_block = self.head_block

        balance_wei: None | str
        balance_wei = self.balance_wei

        heartbeat_interval_seconds = self.heartbeat_interval_seconds

        lease_expires_at = self.lease_expires_at.isoformat()

        last_heartbeat_at: None | str
        if isinstance(self.last_heartbeat_at, datetime.datetime):
            last_heartbeat_at = self.last_heartbeat_at.isoformat()
        else:
            last_heartbeat_at = self.last_heartbeat_at

        registered_at = self.registered_at.isoformat()

        status_changed_at = self.status_changed_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "executorId": executor_id,
                "chainId": chain_id,
                "address": address,
                "name": name,
                "endpointUrl": endpoint_url,
                "version": version,
                "capabilities": capabilities,
                "metadata": metadata,
                "status": status,
                "trusted": trusted,
                "trust": trust,
                "trustBasis": trust_basis,
                "trustedAt": trusted_at,
                "trustRevokedAt": trust_revoked_at,
                "trustChangedBy": trust_changed_by,
                "trustReason": trust_reason,
                "registeredBy": registered_by,
                "pendingJobs": pending_jobs,
                "headBlock": head_block,
                "balanceWei": balance_wei,
                "heartbeatIntervalSeconds": heartbeat_interval_seconds,
                "leaseExpiresAt": lease_expires_at,
                "lastHeartbeatAt": last_heartbeat_at,
                "registeredAt": registered_at,
                "statusChangedAt": status_changed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        executor_id = UUID(d.pop("executorId"))

        chain_id = d.pop("chainId")

        address = d.pop("address")

        name = d.pop("name")

        endpoint_url = d.pop("endpointUrl")

        version = d.pop("version")

        capabilities = d.pop("capabilities")

        metadata = d.pop("metadata")

        status = check_executor_status_enum(d.pop("status"))

        trusted = d.pop("trusted")

        trust = check_trust_enum(d.pop("trust"))

        trust_basis = d.pop("trustBasis")

        def _parse_trusted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                trusted_at_type_0 = isoparse(data)

                return trusted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        trusted_at = _parse_trusted_at(d.pop("trustedAt"))

        def _parse_trust_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                trust_revoked_at_type_0 = isoparse(data)

                return trust_revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        trust_revoked_at = _parse_trust_revoked_at(d.pop("trustRevokedAt"))

        trust_changed_by = d.pop("trustChangedBy")

        trust_reason = d.pop("trustReason")

        registered_by = d.pop("registeredBy")

        def _parse_pending_jobs(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        pending_jobs = _parse_pending_jobs(d.pop("pendingJobs"))

        def _parse_head_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        head_block = _parse_head_block(d.pop("headBlock"))

        def _parse_balance_wei(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        balance_wei = _parse_balance_wei(d.pop("balanceWei"))

        heartbeat_interval_seconds = d.pop("heartbeatIntervalSeconds")

        lease_expires_at = isoparse(d.pop("leaseExpiresAt"))

        def _parse_last_heartbeat_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_heartbeat_at_type_0 = isoparse(data)

                return last_heartbeat_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_heartbeat_at = _parse_last_heartbeat_at(d.pop("lastHeartbeatAt"))

        registered_at = isoparse(d.pop("registeredAt"))

        status_changed_at = isoparse(d.pop("statusChangedAt"))

        executor = cls(
            executor_id=executor_id,
            chain_id=chain_id,
            address=address,
            name=name,
            endpoint_url=endpoint_url,
            version=version,
            capabilities=capabilities,
            metadata=metadata,
            status=status,
            trusted=trusted,
            trust=trust,
            trust_basis=trust_basis,
            trusted_at=trusted_at,
            trust_revoked_at=trust_revoked_at,
            trust_changed_by=trust_changed_by,
            trust_reason=trust_reason,
            registered_by=registered_by,
            pending_jobs=pending_jobs,
            head_block=head_block,
            balance_wei=balance_wei,
            heartbeat_interval_seconds=heartbeat_interval_seconds,
            lease_expires_at=lease_expires_at,
            last_heartbeat_at=last_heartbeat_at,
            registered_at=registered_at,
            status_changed_at=status_changed_at,
        )

        executor.additional_properties = d
        return executor

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
