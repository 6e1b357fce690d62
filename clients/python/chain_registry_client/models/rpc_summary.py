from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rpc_summary_status_enum import RpcSummaryStatusEnum, check_rpc_summary_status_enum

T = TypeVar("T", bound="RpcSummary")


@_attrs_define
class RpcSummary:
    """
    Attributes:
        endpoints (int): RPC endpoints registered for the chain.
        healthy (int): Of those, healthy now (overrides included).
        best_head_block (int | None):
        status (RpcSummaryStatusEnum): * `healthy` - healthy
            * `degraded` - degraded
            * `unknown` - unknown
            * `maintenance` - maintenance
            * `down` - down
    """

    endpoints: int
    healthy: int
    best_head_block: int | None
    status: RpcSummaryStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoints = self.endpoints

        healthy = self.healthy

        best_head_block: int | None
        best_head_block = self.best_head_block

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpoints": endpoints,
                "healthy": healthy,
                "bestHeadBlock": best_head_block,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoints = d.pop("endpoints")

        healthy = d.pop("healthy")

        def _parse_best_head_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        best_head_block = _parse_best_head_block(d.pop("bestHeadBlock"))

        status = check_rpc_summary_status_enum(d.pop("status"))

        rpc_summary = cls(
            endpoints=endpoints,
            healthy=healthy,
            best_head_block=best_head_block,
            status=status,
        )

        rpc_summary.additional_properties = d
        return rpc_summary

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
