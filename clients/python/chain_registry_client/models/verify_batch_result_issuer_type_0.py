from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.verify_batch_result_issuer_type_0_identity import (
    VerifyBatchResultIssuerType0Identity,
    check_verify_batch_result_issuer_type_0_identity,
)

if TYPE_CHECKING:
    from ..models.verify_batch_result_issuer_type_0_proofs_item import VerifyBatchResultIssuerType0ProofsItem


T = TypeVar("T", bound="VerifyBatchResultIssuerType0")


@_attrs_define
class VerifyBatchResultIssuerType0:
    """The issuer of the attester that made the attestation (an organisation an administrator registered, with the domain
    that proves it), or null: none, or not verified.

        Attributes:
            name (str): The issuer's display name (set by an administrator, not by the executor).
            domain (str): The domain that proves it.
            identity (VerifyBatchResultIssuerType0Identity): Whether the domain proves this attester address now: proven (a
                DNS TXT record or the did:web document of the domain names it), lapsed (it did, no longer), unproven (never
                did).
            proofs (list[VerifyBatchResultIssuerType0ProofsItem]): The methods that proved the address at its latest check,
                and when.
    """

    name: str
    domain: str
    identity: VerifyBatchResultIssuerType0Identity
    proofs: list[VerifyBatchResultIssuerType0ProofsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        domain = self.domain

        identity: str = self.identity

        proofs = []
        for proofs_item_data in self.proofs:
            proofs_item = proofs_item_data.to_dict()
            proofs.append(proofs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "domain": domain,
                "identity": identity,
                "proofs": proofs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verify_batch_result_issuer_type_0_proofs_item import VerifyBatchResultIssuerType0ProofsItem

        d = dict(src_dict)
        name = d.pop("name")

        domain = d.pop("domain")

        identity = check_verify_batch_result_issuer_type_0_identity(d.pop("identity"))

        proofs = []
        _proofs = d.pop("proofs")
        for proofs_item_data in _proofs:
            proofs_item = VerifyBatchResultIssuerType0ProofsItem.from_dict(proofs_item_data)

            proofs.append(proofs_item)

        verify_batch_result_issuer_type_0 = cls(
            name=name,
            domain=domain,
            identity=identity,
            proofs=proofs,
        )

        verify_batch_result_issuer_type_0.additional_properties = d
        return verify_batch_result_issuer_type_0

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
