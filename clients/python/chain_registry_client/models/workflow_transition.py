from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.blank_enum import BlankEnum, check_blank_enum
from ..models.workflow_state_enum import WorkflowStateEnum, check_workflow_state_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkflowTransition")


@_attrs_define
class WorkflowTransition:
    """
    Attributes:
        to_state (WorkflowStateEnum): * `received` - Received
            * `queued` - Queued
            * `dispatched` - Dispatched
            * `submitted` - Submitted
            * `confirmed` - Confirmed
            * `failed` - Failed
            * `expired` - Expired
        cause (str):
        from_state (BlankEnum | Unset | WorkflowStateEnum):
        created_at (datetime.datetime | Unset):
    """

    to_state: WorkflowStateEnum
    cause: str
    from_state: BlankEnum | Unset | WorkflowStateEnum = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        to_state: str = self.to_state

        cause = self.cause

        from_state: str | Unset
        if isinstance(self.from_state, Unset):
            from_state = UNSET
        elif isinstance(self.from_state, str):
            from_state = self.from_state
        else:
            from_state = self.from_state

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "toState": to_state,
                "cause": cause,
            }
        )
        if from_state is not UNSET:
            field_dict["fromState"] = from_state
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to_state = check_workflow_state_enum(d.pop("toState"))

        cause = d.pop("cause")

        def _parse_from_state(data: object) -> BlankEnum | Unset | WorkflowStateEnum:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_state_type_0 = check_workflow_state_enum(data)

                return from_state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            from_state_type_1 = check_blank_enum(data)

            return from_state_type_1

        from_state = _parse_from_state(d.pop("fromState", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = isoparse(_created_at)

        workflow_transition = cls(
            to_state=to_state,
            cause=cause,
            from_state=from_state,
            created_at=created_at,
        )

        workflow_transition.additional_properties = d
        return workflow_transition

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
