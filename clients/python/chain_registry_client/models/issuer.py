from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..models.identity_enum import IdentityEnum, check_identity_enum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.issuer_address import IssuerAddress


T = TypeVar("T", bound="Issuer")


@_attrs_define
class Issuer:
    """
    Attributes:
        id (int):
        name (str): The organisation's display name.
        domain (str): The domain whose DNS TXT records or /.well-known/did.json prove the addresses (lowercase, no
            scheme, no port).
        identity (IdentityEnum): * `proven` - Proven
            * `lapsed` - Lapsed
            * `unproven` - Unproven
        checked_at (datetime.datetime | None): When its proofs were last checked.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        addresses (list[IssuerAddress] | Unset): The attester addresses it stands behind, per chain. Given on a PATCH,
            the list replaces the previous one (an address kept keeps its proofs).
    """

    id: int
    name: str
    domain: str
    identity: IdentityEnum
    checked_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    addresses: list[IssuerAddress] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        domain = self.domain

        identity: str = self.identity

        checked_at: None | str
        if isinstance(self.checked_at, datetime.datetime):
            checked_at = self.checked_at.isoformat()
        else:
            checked_at = self.checked_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        addresses: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.addresses, Unset):
            addresses = []
            for addresses_item_data in self.addresses:
                addresses_item = addresses_item_data.to_dict()
                addresses.append(addresses_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "domain": domain,
                "identity": identity,
                "checkedAt": checked_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if addresses is not UNSET:
            field_dict["addresses"] = addresses

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.issuer_address import IssuerAddress

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        domain = d.pop("domain")

        identity = check_identity_enum(d.pop("identity"))

        def _parse_checked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_at_type_0 = isoparse(data)

                return checked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        checked_at = _parse_checked_at(d.pop("checkedAt"))

        created_at = isoparse(d.pop("createdAt"))

        updated_at = isoparse(d.pop("updatedAt"))

        _addresses = d.pop("addresses", UNSET)
        addresses: list[IssuerAddress] | Unset = UNSET
        if _addresses is not UNSET:
            addresses = []
            for addresses_item_data in _addresses:
                addresses_item = IssuerAddress.from_dict(addresses_item_data)

                addresses.append(addresses_item)

        issuer = cls(
            id=id,
            name=name,
            domain=domain,
            identity=identity,
            checked_at=checked_at,
            created_at=created_at,
            updated_at=updated_at,
            addresses=addresses,
        )

        issuer.additional_properties = d
        return issuer

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
