from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.schema_validate_request_data import SchemaValidateRequestData


T = TypeVar("T", bound="SchemaValidateRequest")


@_attrs_define
class SchemaValidateRequest:
    """
    Attributes:
        schema (str): An EAS schema string: `bytes32 documentHash,string name,uint64 expiry`.
        data (SchemaValidateRequestData | Unset): Values keyed by field name, to check and ABI-encode. Without it only
            the schema string is checked.
    """

    schema: str
    data: SchemaValidateRequestData | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        schema = self.schema

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schema": schema,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.schema_validate_request_data import SchemaValidateRequestData

        d = dict(src_dict)
        schema = d.pop("schema")

        _data = d.pop("data", UNSET)
        data: SchemaValidateRequestData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = SchemaValidateRequestData.from_dict(_data)

        schema_validate_request = cls(
            schema=schema,
            data=data,
        )

        return schema_validate_request
