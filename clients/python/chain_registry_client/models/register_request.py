from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.register_request_metadata import RegisterRequestMetadata
    from ..models.register_request_proof import RegisterRequestProof


T = TypeVar("T", bound="RegisterRequest")


@_attrs_define
class RegisterRequest:
    """
    Attributes:
        address (str):  Example: 0xabababababababababababababababababababab.
        proof (RegisterRequestProof): A challenge (POST /v1/chain-registry/{chain}/challenge) signed by the address:
            registering proves the caller holds its key.
        name (str | Unset):  Default: ''.
        endpoint_url (str | Unset):  Default: ''.
        version (str | Unset):  Default: ''.
        capabilities (list[Any] | Unset):
        metadata (RegisterRequestMetadata | Unset):
    """

    address: str
    proof: RegisterRequestProof
    name: str | Unset = ""
    endpoint_url: str | Unset = ""
    version: str | Unset = ""
    capabilities: list[Any] | Unset = UNSET
    metadata: RegisterRequestMetadata | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        proof = self.proof.to_dict()

        name = self.name

        endpoint_url = self.endpoint_url

        version = self.version

        capabilities: list[Any] | Unset = UNSET
        if not isinstance(self.capabilities, Unset):
            capabilities = self.capabilities

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
                "proof": proof,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if endpoint_url is not UNSET:
            field_dict["endpointUrl"] = endpoint_url
        if version is not UNSET:
            field_dict["version"] = version
        if capabilities is not UNSET:
            field_dict["capabilities"] = capabilities
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.register_request_metadata import RegisterRequestMetadata
        from ..models.register_request_proof import RegisterRequestProof

        d = dict(src_dict)
        address = d.pop("address")

        proof = RegisterRequestProof.from_dict(d.pop("proof"))

        name = d.pop("name", UNSET)

        endpoint_url = d.pop("endpointUrl", UNSET)

        version = d.pop("version", UNSET)

        capabilities = cast(list[Any], d.pop("capabilities", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: RegisterRequestMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = RegisterRequestMetadata.from_dict(_metadata)

        register_request = cls(
            address=address,
            proof=proof,
            name=name,
            endpoint_url=endpoint_url,
            version=version,
            capabilities=capabilities,
            metadata=metadata,
        )

        return register_request
