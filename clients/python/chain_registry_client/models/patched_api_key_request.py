from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedApiKeyRequest")


@_attrs_define
class PatchedApiKeyRequest:
    """A key as administrators see it: never its secret (shown once, at its creation).

    Attributes:
        name (str | Unset):
        allowed_addresses (list[str] | Unset): An executor key's standing allow-list: an executor it registers at one of
            these addresses (after proving it holds the address's key) is trusted at once, without an administrator's
            approval. Read at each registration; emptied when the key is revoked.
    """

    name: str | Unset = UNSET
    allowed_addresses: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        allowed_addresses: list[str] | Unset = UNSET
        if not isinstance(self.allowed_addresses, Unset):
            allowed_addresses = self.allowed_addresses

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if allowed_addresses is not UNSET:
            field_dict["allowedAddresses"] = allowed_addresses

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        allowed_addresses = cast(list[str], d.pop("allowedAddresses", UNSET))

        patched_api_key_request = cls(
            name=name,
            allowed_addresses=allowed_addresses,
        )

        return patched_api_key_request
