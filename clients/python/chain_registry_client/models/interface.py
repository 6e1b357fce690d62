from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.interface_errors_item import InterfaceErrorsItem
    from ..models.interface_events_item import InterfaceEventsItem
    from ..models.interface_functions_item import InterfaceFunctionsItem


T = TypeVar("T", bound="Interface")


@_attrs_define
class Interface:
    """
    Attributes:
        functions (list[InterfaceFunctionsItem]):
        events (list[InterfaceEventsItem]):
        errors (list[InterfaceErrorsItem]):
    """

    functions: list[InterfaceFunctionsItem]
    events: list[InterfaceEventsItem]
    errors: list[InterfaceErrorsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        functions = []
        for functions_item_data in self.functions:
            functions_item = functions_item_data.to_dict()
            functions.append(functions_item)

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "functions": functions,
                "events": events,
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.interface_errors_item import InterfaceErrorsItem
        from ..models.interface_events_item import InterfaceEventsItem
        from ..models.interface_functions_item import InterfaceFunctionsItem

        d = dict(src_dict)
        functions = []
        _functions = d.pop("functions")
        for functions_item_data in _functions:
            functions_item = InterfaceFunctionsItem.from_dict(functions_item_data)

            functions.append(functions_item)

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = InterfaceEventsItem.from_dict(events_item_data)

            events.append(events_item)

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = InterfaceErrorsItem.from_dict(errors_item_data)

            errors.append(errors_item)

        interface = cls(
            functions=functions,
            events=events,
            errors=errors,
        )

        interface.additional_properties = d
        return interface

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
