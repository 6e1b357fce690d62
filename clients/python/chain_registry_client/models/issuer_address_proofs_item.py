from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.issuer_address_proofs_item_method import (
    IssuerAddressProofsItemMethod,
    check_issuer_address_proofs_item_method,
)

T = TypeVar("T", bound="IssuerAddressProofsItem")


@_attrs_define
class IssuerAddressProofsItem:
    """
    Attributes:
        method (IssuerAddressProofsItemMethod):
        checked_at (datetime.datetime):
    """

    method: IssuerAddressProofsItemMethod
    checked_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        method: str = self.method

        checked_at = self.checked_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "method": method,
                "checkedAt": checked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        method = check_issuer_address_proofs_item_method(d.pop("method"))

        checked_at = isoparse(d.pop("checkedAt"))

        issuer_address_proofs_item = cls(
            method=method,
            checked_at=checked_at,
        )

        issuer_address_proofs_item.additional_properties = d
        return issuer_address_proofs_item

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
