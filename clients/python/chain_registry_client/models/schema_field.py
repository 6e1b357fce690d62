from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.schema_field_components_item import SchemaFieldComponentsItem


T = TypeVar("T", bound="SchemaField")


@_attrs_define
class SchemaField:
    """
    Attributes:
        name (str):
        type_ (str): Canonical ABI type: `uint256`, `(string,uint256)[]`.
        components (list[SchemaFieldComponentsItem] | Unset): Tuples only: their fields, each {name, type, components?}.
    """

    name: str
    type_: str
    components: list[SchemaFieldComponentsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        components: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.components, Unset):
            components = []
            for components_item_data in self.components:
                components_item = components_item_data.to_dict()
                components.append(components_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if components is not UNSET:
            field_dict["components"] = components

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.schema_field_components_item import SchemaFieldComponentsItem

        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        _components = d.pop("components", UNSET)
        components: list[SchemaFieldComponentsItem] | Unset = UNSET
        if _components is not UNSET:
            components = []
            for components_item_data in _components:
                components_item = SchemaFieldComponentsItem.from_dict(components_item_data)

                components.append(components_item)

        schema_field = cls(
            name=name,
            type_=type_,
            components=components,
        )

        schema_field.additional_properties = d
        return schema_field

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
