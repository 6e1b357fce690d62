from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.schema_check_error import SchemaCheckError
    from ..models.schema_field import SchemaField


T = TypeVar("T", bound="SchemaValidateResponse")


@_attrs_define
class SchemaValidateResponse:
    """
    Attributes:
        valid (bool):
        errors (list[SchemaCheckError]):
        fields (list[SchemaField]): Empty when the schema is invalid.
        document_hash_field (None | str): `documentHash` when the schema has a `bytes32 documentHash` field (a document
            schema), else null.
        encoded (None | str): The data ABI-encoded as EAS stores it (0x-hex); null without data or when anything is
            invalid.
    """

    valid: bool
    errors: list[SchemaCheckError]
    fields: list[SchemaField]
    document_hash_field: None | str
    encoded: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        valid = self.valid

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        document_hash_field: None | str
        document_hash_field = self.document_hash_field

        encoded: None | str
        encoded = self.encoded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "valid": valid,
                "errors": errors,
                "fields": fields,
                "documentHashField": document_hash_field,
                "encoded": encoded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.schema_check_error import SchemaCheckError
        from ..models.schema_field import SchemaField

        d = dict(src_dict)
        valid = d.pop("valid")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = SchemaCheckError.from_dict(errors_item_data)

            errors.append(errors_item)

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = SchemaField.from_dict(fields_item_data)

            fields.append(fields_item)

        def _parse_document_hash_field(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        document_hash_field = _parse_document_hash_field(d.pop("documentHashField"))

        def _parse_encoded(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        encoded = _parse_encoded(d.pop("encoded"))

        schema_validate_response = cls(
            valid=valid,
            errors=errors,
            fields=fields,
            document_hash_field=document_hash_field,
            encoded=encoded,
        )

        schema_validate_response.additional_properties = d
        return schema_validate_response

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
