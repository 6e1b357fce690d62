from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem import Problem


T = TypeVar("T", bound="TrpcErrorData")


@_attrs_define
class TrpcErrorData:
    """
    Attributes:
        code (str | Unset): tRPC's name (NOT_FOUND).
        http_status (int | Unset):
        path (str | Unset):
        problem (Problem | Unset): An RFC 9457 problem document.
    """

    code: str | Unset = UNSET
    http_status: int | Unset = UNSET
    path: str | Unset = UNSET
    problem: Problem | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        http_status = self.http_status

        path = self.path

        problem: dict[str, Any] | Unset = UNSET
        if not isinstance(self.problem, Unset):
            problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if code is not UNSET:
            field_dict["code"] = code
        if http_status is not UNSET:
            field_dict["httpStatus"] = http_status
        if path is not UNSET:
            field_dict["path"] = path
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem import Problem

        d = dict(src_dict)
        code = d.pop("code", UNSET)

        http_status = d.pop("httpStatus", UNSET)

        path = d.pop("path", UNSET)

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        trpc_error_data = cls(
            code=code,
            http_status=http_status,
            path=path,
            problem=problem,
        )

        trpc_error_data.additional_properties = d
        return trpc_error_data

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
