from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobResultItemRequest")


@_attrs_define
class JobResultItemRequest:
    """
    Attributes:
        workflow_id (UUID):
        tx_hash (str | Unset):  Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
        error (str | Unset):
        merkle_root (str | Unset): Binding mode `merkle`: the root attested in `txHash`. The results of one root come in
            one report; the service builds the tree of their documents again and refuses a root that is not theirs (409
            merkle_root_mismatch). Example: 0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.
    """

    workflow_id: UUID
    tx_hash: str | Unset = UNSET
    error: str | Unset = UNSET
    merkle_root: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        workflow_id = str(self.workflow_id)

        tx_hash = self.tx_hash

        error = self.error

        merkle_root = self.merkle_root

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflowId": workflow_id,
            }
        )
        if tx_hash is not UNSET:
            field_dict["txHash"] = tx_hash
        if error is not UNSET:
            field_dict["error"] = error
        if merkle_root is not UNSET:
            field_dict["merkleRoot"] = merkle_root

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workflow_id = UUID(d.pop("workflowId"))

        tx_hash = d.pop("txHash", UNSET)

        error = d.pop("error", UNSET)

        merkle_root = d.pop("merkleRoot", UNSET)

        job_result_item_request = cls(
            workflow_id=workflow_id,
            tx_hash=tx_hash,
            error=error,
            merkle_root=merkle_root,
        )

        return job_result_item_request
