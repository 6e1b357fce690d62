from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.method_enum import MethodEnum, check_method_enum
from ..types import UNSET, Unset

T = TypeVar("T", bound="IdentityCheck")


@_attrs_define
class IdentityCheck:
    """
    Attributes:
        id (int):
        method (MethodEnum): * `dns` - DNS TXT
            * `did_web` - did:web
        chain_id (int):
        address (str):
        proven (bool):
        reason (str): Why it proves the address, or not.
        checked_at (datetime.datetime | Unset):
        seen (str | Unset): What the method read (clipped).
        dnssec (bool | None | Unset): DNS: whether the resolver said the answer was authenticated (AD flag).
    """

    id: int
    method: MethodEnum
    chain_id: int
    address: str
    proven: bool
    reason: str
    checked_at: datetime.datetime | Unset = UNSET
    seen: str | Unset = UNSET
    dnssec: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        method: str = self.method

        chain_id = self.chain_id

        address = self.address

        proven = self.proven

        reason = self.reason

        checked_at: str | Unset = UNSET
        if not isinstance(self.checked_at, Unset):
            checked_at = self.checked_at.isoformat()

        seen = self.seen

        dnssec: bool | None | Unset
        if isinstance(self.dnssec, Unset):
            dnssec = UNSET
        else:
            dnssec = self.dnssec

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "method": method,
                "chainId": chain_id,
                "address": address,
                "proven": proven,
                "reason": reason,
            }
        )
        if checked_at is not UNSET:
            field_dict["checkedAt"] = checked_at
        if seen is not UNSET:
            field_dict["seen"] = seen
        if dnssec is not UNSET:
            field_dict["dnssec"] = dnssec

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        method = check_method_enum(d.pop("method"))

        chain_id = d.pop("chainId")

        address = d.pop("address")

        proven = d.pop("proven")

        reason = d.pop("reason")

        _checked_at = d.pop("checkedAt", UNSET)
        checked_at: datetime.datetime | Unset
        if isinstance(_checked_at, Unset):
            checked_at = UNSET
        else:
            checked_at = isoparse(_checked_at)

        seen = d.pop("seen", UNSET)

        def _parse_dnssec(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        dnssec = _parse_dnssec(d.pop("dnssec", UNSET))

        identity_check = cls(
            id=id,
            method=method,
            chain_id=chain_id,
            address=address,
            proven=proven,
            reason=reason,
            checked_at=checked_at,
            seen=seen,
            dnssec=dnssec,
        )

        identity_check.additional_properties = d
        return identity_check

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
