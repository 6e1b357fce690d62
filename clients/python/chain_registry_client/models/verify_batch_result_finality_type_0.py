from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.verify_batch_result_finality_type_0_rule import (
    VerifyBatchResultFinalityType0Rule,
    check_verify_batch_result_finality_type_0_rule,
)

T = TypeVar("T", bound="VerifyBatchResultFinalityType0")


@_attrs_define
class VerifyBatchResultFinalityType0:
    """What "final" meant for this answer: the rule of the attestation's chain (of the asked chain when nothing was found
    there) and its newest final block; null when no chain applies (nothing found and no chain asked; an offchain
    attestation).

        Attributes:
            rule (VerifyBatchResultFinalityType0Rule): The chain's finality rule: `confirmations` (its `confirmations`
                blocks on top), `safe` or `finalized` (at or below the node's block of that tag).
            finalized_block (int | None): The newest block final under that rule when the answer was made (null: none yet).
    """

    rule: VerifyBatchResultFinalityType0Rule
    finalized_block: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rule: str = self.rule

        finalized_block: int | None
        finalized_block = self.finalized_block

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rule": rule,
                "finalizedBlock": finalized_block,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rule = check_verify_batch_result_finality_type_0_rule(d.pop("rule"))

        def _parse_finalized_block(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        finalized_block = _parse_finalized_block(d.pop("finalizedBlock"))

        verify_batch_result_finality_type_0 = cls(
            rule=rule,
            finalized_block=finalized_block,
        )

        verify_batch_result_finality_type_0.additional_properties = d
        return verify_batch_result_finality_type_0

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
