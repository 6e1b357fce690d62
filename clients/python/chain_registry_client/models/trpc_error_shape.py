from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.trpc_error_data import TrpcErrorData


T = TypeVar("T", bound="TrpcErrorShape")


@_attrs_define
class TrpcErrorShape:
    """
    Attributes:
        message (str):
        code (int): tRPC's JSON-RPC number (-32004).
        data (TrpcErrorData):
    """

    message: str
    code: int
    data: TrpcErrorData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        code = self.code

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "code": code,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trpc_error_data import TrpcErrorData

        d = dict(src_dict)
        message = d.pop("message")

        code = d.pop("code")

        data = TrpcErrorData.from_dict(d.pop("data"))

        trpc_error_shape = cls(
            message=message,
            code=code,
            data=data,
        )

        trpc_error_shape.additional_properties = d
        return trpc_error_shape

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
