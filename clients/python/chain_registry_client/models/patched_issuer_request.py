from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.issuer_address_request import IssuerAddressRequest


T = TypeVar("T", bound="PatchedIssuerRequest")


@_attrs_define
class PatchedIssuerRequest:
    """
    Attributes:
        name (str | Unset): The organisation's display name.
        domain (str | Unset): The domain whose DNS TXT records or /.well-known/did.json prove the addresses (lowercase,
            no scheme, no port).
        addresses (list[IssuerAddressRequest] | Unset): The attester addresses it stands behind, per chain. Given on a
            PATCH, the list replaces the previous one (an address kept keeps its proofs).
    """

    name: str | Unset = UNSET
    domain: str | Unset = UNSET
    addresses: list[IssuerAddressRequest] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        domain = self.domain

        addresses: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.addresses, Unset):
            addresses = []
            for addresses_item_data in self.addresses:
                addresses_item = addresses_item_data.to_dict()
                addresses.append(addresses_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if domain is not UNSET:
            field_dict["domain"] = domain
        if addresses is not UNSET:
            field_dict["addresses"] = addresses

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.issuer_address_request import IssuerAddressRequest

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        domain = d.pop("domain", UNSET)

        _addresses = d.pop("addresses", UNSET)
        addresses: list[IssuerAddressRequest] | Unset = UNSET
        if _addresses is not UNSET:
            addresses = []
            for addresses_item_data in _addresses:
                addresses_item = IssuerAddressRequest.from_dict(addresses_item_data)

                addresses.append(addresses_item)

        patched_issuer_request = cls(
            name=name,
            domain=domain,
            addresses=addresses,
        )

        return patched_issuer_request
