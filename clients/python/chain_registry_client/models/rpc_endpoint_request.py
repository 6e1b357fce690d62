from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.monitoring_request import MonitoringRequest


T = TypeVar("T", bound="RpcEndpointRequest")


@_attrs_define
class RpcEndpointRequest:
    """
    Attributes:
        chain_id (int):
        url (str): Shown with credentials masked as ***.
        provider (str | Unset):
        priority (int | Unset): Lower is tried first.
        monitoring (MonitoringRequest | Unset):
    """

    chain_id: int
    url: str
    provider: str | Unset = UNSET
    priority: int | Unset = UNSET
    monitoring: MonitoringRequest | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        url = self.url

        provider = self.provider

        priority = self.priority

        monitoring: dict[str, Any] | Unset = UNSET
        if not isinstance(self.monitoring, Unset):
            monitoring = self.monitoring.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chainId": chain_id,
                "url": url,
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
        from ..models.monitoring_request import MonitoringRequest

        d = dict(src_dict)
        chain_id = d.pop("chainId")

        url = d.pop("url")

        provider = d.pop("provider", UNSET)

        priority = d.pop("priority", UNSET)

        _monitoring = d.pop("monitoring", UNSET)
        monitoring: MonitoringRequest | Unset
        if isinstance(_monitoring, Unset):
            monitoring = UNSET
        else:
            monitoring = MonitoringRequest.from_dict(_monitoring)

        rpc_endpoint_request = cls(
            chain_id=chain_id,
            url=url,
            provider=provider,
            priority=priority,
            monitoring=monitoring,
        )

        return rpc_endpoint_request
