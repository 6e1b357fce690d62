from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrustedAttester")


@_attrs_define
class TrustedAttester:
    """
    Attributes:
        id (int):
        chain_id (int):
        address (str):  Example: 0xabababababababababababababababababababab.
        added_by (str):
        proven_at (datetime.datetime | None): When the address proved it holds its key (an EIP-4361 proof sent with it).
        created_at (datetime.datetime):
        note (str | Unset):
    """

    id: int
    chain_id: int
    address: str
    added_by: str
    proven_at: datetime.datetime | None
    created_at: datetime.datetime
    note: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        chain_id = self.chain_id

        address = self.address

        added_by = self.added_by

        proven_at: None | str
        if isinstance(self.proven_at, datetime.datetime):
            proven_at = self.proven_at.isoformat()
        else:
            proven_at = self.proven_at

        created_at = self.created_at.isoformat()

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "chainId": chain_id,
                "address": address,
                "addedBy": added_by,
                "provenAt": proven_at,
                "createdAt": created_at,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        chain_id = d.pop("chainId")

        address = d.pop("address")

        added_by = d.pop("addedBy")

        def _parse_proven_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                proven_at_type_0 = isoparse(data)

                return proven_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        proven_at = _parse_proven_at(d.pop("provenAt"))

        created_at = isoparse(d.pop("createdAt"))

        note = d.pop("note", UNSET)

        trusted_attester = cls(
            id=id,
            chain_id=chain_id,
            address=address,
            added_by=added_by,
            proven_at=proven_at,
            created_at=created_at,
            note=note,
        )

        trusted_attester.additional_properties = d
        return trusted_attester

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
