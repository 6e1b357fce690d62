from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.identity_enum import IdentityEnum, check_identity_enum

if TYPE_CHECKING:
    from ..models.issuer_address_proofs_item import IssuerAddressProofsItem


T = TypeVar("T", bound="IssuerAddress")


@_attrs_define
class IssuerAddress:
    """
    Attributes:
        chain_id (int):
        address (str):  Example: 0xabababababababababababababababababababab.
        identity (IdentityEnum): * `proven` - Proven
            * `lapsed` - Lapsed
            * `unproven` - Unproven
        proofs (list[IssuerAddressProofsItem]): The methods that proved the address at its latest check, and when.
    """

    chain_id: int
    address: str
    identity: IdentityEnum
    proofs: list[IssuerAddressProofsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chain_id = self.chain_id

        address = self.address

        identity: str = self.identity

        proofs = []
        for proofs_item_data in self.proofs:
            proofs_item = proofs_item_data.to_dict()
            proofs.append(proofs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chainId": chain_id,
                "address": address,
                "identity": identity,
                "proofs": proofs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.issuer_address_proofs_item import IssuerAddressProofsItem

        d = dict(src_dict)
        chain_id = d.pop("chainId")

        address = d.pop("address")

        identity = check_identity_enum(d.pop("identity"))

        proofs = []
        _proofs = d.pop("proofs")
        for proofs_item_data in _proofs:
            proofs_item = IssuerAddressProofsItem.from_dict(proofs_item_data)

            proofs.append(proofs_item)

        issuer_address = cls(
            chain_id=chain_id,
            address=address,
            identity=identity,
            proofs=proofs,
        )

        issuer_address.additional_properties = d
        return issuer_address

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
