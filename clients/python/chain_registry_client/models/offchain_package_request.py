from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.offchain_package_request_sig import OffchainPackageRequestSig


T = TypeVar("T", bound="OffchainPackageRequest")


@_attrs_define
class OffchainPackageRequest:
    """The EAS SDK's offchain attestation package, as `signOffchainAttestation` and
    easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
    (its errors name the part: `sig.domain.version`, `sig.signature`, ...).

        Attributes:
            sig (OffchainPackageRequestSig): The signed offchain attestation: version, uid, domain, primaryType, types,
                message, signature {v, r, s}.
            signer (str): The attester's address.
    """

    sig: OffchainPackageRequestSig
    signer: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sig = self.sig.to_dict()

        signer = self.signer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sig": sig,
                "signer": signer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.offchain_package_request_sig import OffchainPackageRequestSig

        d = dict(src_dict)
        sig = OffchainPackageRequestSig.from_dict(d.pop("sig"))

        signer = d.pop("signer")

        offchain_package_request = cls(
            sig=sig,
            signer=signer,
        )

        offchain_package_request.additional_properties = d
        return offchain_package_request

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
