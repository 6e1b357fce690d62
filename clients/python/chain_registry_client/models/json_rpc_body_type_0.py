from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.json_rpc_body_type_0_jsonrpc import JsonRpcBodyType0Jsonrpc, check_json_rpc_body_type_0_jsonrpc
from ..models.json_rpc_body_type_0_method import JsonRpcBodyType0Method, check_json_rpc_body_type_0_method
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.json_rpc_body_type_0_params import JsonRpcBodyType0Params


T = TypeVar("T", bound="JsonRpcBodyType0")


@_attrs_define
class JsonRpcBodyType0:
    """
    Attributes:
        jsonrpc (JsonRpcBodyType0Jsonrpc):
        method (JsonRpcBodyType0Method):
        params (JsonRpcBodyType0Params | Unset):
        id (int | str | Unset):
    """

    jsonrpc: JsonRpcBodyType0Jsonrpc
    method: JsonRpcBodyType0Method
    params: JsonRpcBodyType0Params | Unset = UNSET
    id: int | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        jsonrpc: str = self.jsonrpc

        method: str = self.method

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        id: int | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "jsonrpc": jsonrpc,
                "method": method,
            }
        )
        if params is not UNSET:
            field_dict["params"] = params
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.json_rpc_body_type_0_params import JsonRpcBodyType0Params

        d = dict(src_dict)
        jsonrpc = check_json_rpc_body_type_0_jsonrpc(d.pop("jsonrpc"))

        method = check_json_rpc_body_type_0_method(d.pop("method"))

        _params = d.pop("params", UNSET)
        params: JsonRpcBodyType0Params | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = JsonRpcBodyType0Params.from_dict(_params)

        def _parse_id(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        json_rpc_body_type_0 = cls(
            jsonrpc=jsonrpc,
            method=method,
            params=params,
            id=id,
        )

        json_rpc_body_type_0.additional_properties = d
        return json_rpc_body_type_0

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
