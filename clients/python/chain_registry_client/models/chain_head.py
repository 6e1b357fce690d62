from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.blank_enum import BlankEnum, check_blank_enum
from ..models.stall_reason_enum import StallReasonEnum, check_stall_reason_enum

T = TypeVar("T", bound="ChainHead")


@_attrs_define
class ChainHead:
    """What the indexer last saw of the chain (attestations/finality.py).

    Attributes:
        head_block (int | None): The newest head seen (null before the indexer's first run).
        head_at (datetime.datetime | None): When that head was first seen.
        finalized_block (int | None): The newest block final under the chain's `finality` rule.
        stalled (bool): No new head for the chain's stall window, or its safe/finalized block not advancing: answers
            about it are as of `headBlock`.
        stalled_since (datetime.datetime | None):
        stall_reason (BlankEnum | StallReasonEnum): Why it is stalled (empty when it is not).

            * `` -
            * `no_new_head` - no_new_head
            * `finality_not_advancing` - finality_not_advancing
    """

    head_block: int | None
    head_at: datetime.datetime | None
    finalized_block: int | None
    stalled: bool
    stalled_since: datetime.datetime | None
    stall_reason: BlankEnum | StallReasonEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        head_block: int | None
        head_block = self.head_block

        head_at: None | str
        if isinstance(self.head_at, datetime.datetime):
            head_at = self.head_at.isoformat()
        else:
            head_at = self.head_at

        finalized_block: int | None
        finalized_block = self.finalized_block

        stalled = self.stalled

        stalled_since: None | str
        if isinstance(self.stalled_since, datetime.datetime):
            stalled_since = self.stalled_since.isoformat()
        else:
            stalled_since = self.stalled_since

        stall_reason: str
        if isinstance(self.stall_reason, str):
            stall_reason = self.stall_reason
        else:
            stall_reason = self.stall_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "headBlock": head_block,
                "headAt": head_at,
                "finalizedBlock": finalized_block,
                "stalled": stalled,
                "stalledSince": stalled_since,
                "stallReason": stall_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_head_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        head_block = _parse_head_block(d.pop("headBlock"))

        def _parse_head_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                head_at_type_0 = isoparse(data)

                return head_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        head_at = _parse_head_at(d.pop("headAt"))

        def _parse_finalized_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        finalized_block = _parse_finalized_block(d.pop("finalizedBlock"))

        stalled = d.pop("stalled")

        def _parse_stalled_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stalled_since_type_0 = isoparse(data)

                return stalled_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        stalled_since = _parse_stalled_since(d.pop("stalledSince"))

        def _parse_stall_reason(data: object) -> BlankEnum | StallReasonEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stall_reason_type_0 = check_stall_reason_enum(data)

                return stall_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            stall_reason_type_1 = check_blank_enum(data)

            return stall_reason_type_1

        stall_reason = _parse_stall_reason(d.pop("stallReason"))

        chain_head = cls(
            head_block=head_block,
            head_at=head_at,
            finalized_block=finalized_block,
            stalled=stalled,
            stalled_since=stalled_since,
            stall_reason=stall_reason,
        )

        chain_head.additional_properties = d
        return chain_head

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
