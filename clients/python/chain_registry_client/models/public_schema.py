from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.public_schema_fields_item import PublicSchemaFieldsItem


T = TypeVar("T", bound="PublicSchema")


@_attrs_define
class PublicSchema:
    r"""
    Attributes:
        uid (str):
        chain_id (int):
        schema (str): The schema string as registered; where it holds a NUL or bytes that are not UTF-8, they are
            written `\xNN` (its bytes are then in `rawSchema`).
        raw_schema (None | str): The schema string's bytes as registered (0x-hex) when `schema` escapes some of them;
            else null. Example: 0x1234.
        fields (list[PublicSchemaFieldsItem]): Parsed fields [{name, type, components?}], as `POST /schemas/validate`
            returns them; empty when the schema string does not parse.
        resolver (str):
        revocable (bool):
        attestation_count (int): Attestations indexed with it.
        document_hash_field (None | str): The bytes32 field that holds a document hash, or null.
        tx_hash (str): The transaction that emitted the record's event.
        block_number (int):
        confirmations (int): Blocks from the record's block to the chain's head as the indexer last saw it, that block
            included; compare with the chain's `confirmations`.
        registerer (str | Unset):
    """

    uid: str
    chain_id: int
    schema: str
    raw_schema: None | str
    fields: list[PublicSchemaFieldsItem]
    resolver: str
    revocable: bool
    attestation_count: int
    document_hash_field: None | str
    tx_hash: str
    block_number: int
    confirmations: int
    registerer: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        uid = self.uid

        chain_id = self.chain_id

        schema = self.schema

        raw_schema: None | str
        raw_schema = self.raw_schema

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        resolver = self.resolver

        revocable = self.revocable

        attestation_count = self.attestation_count

        document_hash_field: None | str
        document_hash_field = self.document_hash_field

        tx_hash = self.tx_hash

        block_number = self.block_number

        confirmations = self.confirmations

        registerer = self.registerer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uid": uid,
                "chainId": chain_id,
                "schema": schema,
                "rawSchema": raw_schema,
                "fields": fields,
                "resolver": resolver,
                "revocable": revocable,
                "attestationCount": attestation_count,
                "documentHashField": document_hash_field,
                "txHash": tx_hash,
                "blockNumber": block_number,
                "confirmations": confirmations,
            }
        )
        if registerer is not UNSET:
            field_dict["registerer"] = registerer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.public_schema_fields_item import PublicSchemaFieldsItem

        d = dict(src_dict)
        uid = d.pop("uid")

        chain_id = d.pop("chainId")

        schema = d.pop("schema")

        def _parse_raw_schema(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        raw_schema = _parse_raw_schema(d.pop("rawSchema"))

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = PublicSchemaFieldsItem.from_dict(fields_item_data)

            fields.append(fields_item)

        resolver = d.pop("resolver")

        revocable = d.pop("revocable")

        attestation_count = d.pop("attestationCount")

        def _parse_document_hash_field(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        document_hash_field = _parse_document_hash_field(d.pop("documentHashField"))

        tx_hash = d.pop("txHash")

        block_number = d.pop("blockNumber")

        confirmations = d.pop("confirmations")

        registerer = d.pop("registerer", UNSET)

        public_schema = cls(
            uid=uid,
            chain_id=chain_id,
            schema=schema,
            raw_schema=raw_schema,
            fields=fields,
            resolver=resolver,
            revocable=revocable,
            attestation_count=attestation_count,
            document_hash_field=document_hash_field,
            tx_hash=tx_hash,
            block_number=block_number,
            confirmations=confirmations,
            registerer=registerer,
        )

        public_schema.additional_properties = d
        return public_schema

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
