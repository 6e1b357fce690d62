from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attestation_decoded_type_0 import AttestationDecodedType0


T = TypeVar("T", bound="Attestation")


@_attrs_define
class Attestation:
    r"""An attestation's schema, expiry and data as its schema decodes it: on-chain and
    offchain ones alike.

        Attributes:
            uid (str):
            chain_id (int):
            schema_id (str):
            attester (str):
            recipient (str):
            ref_uid (str):
            time (datetime.datetime): When the chain says it was attested.
            expiration_time (datetime.datetime | int | None): The expirationTime as attested: a date-time; an integer of
                seconds when it is beyond 9999-12-31 (verification counts it as never expiring); null: never expires. Example:
                2027-11-21T10:00:00Z.
            revocable (bool):
            revoked (bool): Whether it has a revocation time.
            data (str): The attestation data as attested (ABI-encoded). Example: 0x1234.
            decoded (AttestationDecodedType0 | None): The data decoded by its schema, keyed by field name (strings with a
                NUL or bytes that are not UTF-8 have them written `\xNN`; `data` is the source of truth); null when it is not
                decoded, `decodeError` says why.
            decode_error (None | str): Why `decoded` is null: the schema is not indexed (yet), does not parse, or the data
                does not decode with it (or is too long to); null when decoded.
            document_hash (None | str): The document hash, when the schema has one.
            tx_hash (str): The transaction that emitted the record's event.
            block_number (int):
            confirmations (int): Blocks from the record's block to the chain's head as the indexer last saw it, that block
                included; compare with the chain's `confirmations`.
            revocation_time (datetime.datetime | None | Unset):
    """

    uid: str
    chain_id: int
    schema_id: str
    attester: str
    recipient: str
    ref_uid: str
    time: datetime.datetime
    expiration_time: datetime.datetime | int | None
    revocable: bool
    revoked: bool
    data: str
    decoded: AttestationDecodedType0 | None
    decode_error: None | str
    document_hash: None | str
    tx_hash: str
    block_number: int
    confirmations: int
    revocation_time: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.attestation_decoded_type_0 import AttestationDecodedType0

        uid = self.uid

        chain_id = self.chain_id

        schema_id = self.schema_id

        attester = self.attester

        recipient = self.recipient

        ref_uid = self.ref_uid

        time = self.time.isoformat()

        expiration_time: int | None | str
        if isinstance(self.expiration_time, datetime.datetime):
            expiration_time = self.expiration_time.isoformat()
        else:
            expiration_time = self.expiration_time

        revocable = self.revocable

        revoked = self.revoked

        data = self.data

        decoded: dict[str, Any] | None
        if isinstance(self.decoded, AttestationDecodedType0):
            decoded = self.decoded.to_dict()
        else:
            decoded = self.decoded

        decode_error: None | str
        decode_error = self.decode_error

        document_hash: None | str
        document_hash = self.document_hash

        tx_hash = self.tx_hash

        block_number = self.block_number

        confirmations = self.confirmations

        revocation_time: None | str | Unset
        if isinstance(self.revocation_time, Unset):
            revocation_time = UNSET
        elif isinstance(self.revocation_time, datetime.datetime):
            revocation_time = self.revocation_time.isoformat()
        else:
            revocation_time = self.revocation_time

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uid": uid,
                "chainId": chain_id,
                "schemaId": schema_id,
                "attester": attester,
                "recipient": recipient,
                "refUid": ref_uid,
                "time": time,
                "expirationTime": expiration_time,
                "revocable": revocable,
                "revoked": revoked,
                "data": data,
                "decoded": decoded,
                "decodeError": decode_error,
                "documentHash": document_hash,
                "txHash": tx_hash,
                "blockNumber": block_number,
                "confirmations": confirmations,
            }
        )
        if revocation_time is not UNSET:
            field_dict["revocationTime"] = revocation_time

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attestation_decoded_type_0 import AttestationDecodedType0

        d = dict(src_dict)
        uid = d.pop("uid")

        chain_id = d.pop("chainId")

        schema_id = d.pop("schemaId")

        attester = d.pop("attester")

        recipient = d.pop("recipient")

        ref_uid = d.pop("refUid")

        time = isoparse(d.pop("time"))

        def _parse_expiration_time(data: object) -> datetime.datetime | int | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiration_time_type_0_type_0 = isoparse(data)

                return expiration_time_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | int | None, data)

        expiration_time = _parse_expiration_time(d.pop("expirationTime"))

        revocable = d.pop("revocable")

        revoked = d.pop("revoked")

        data = d.pop("data")

        def _parse_decoded(data: object) -> AttestationDecodedType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decoded_type_0 = AttestationDecodedType0.from_dict(data)

                return decoded_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AttestationDecodedType0 | None, data)

        decoded = _parse_decoded(d.pop("decoded"))

        def _parse_decode_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decode_error = _parse_decode_error(d.pop("decodeError"))

        def _parse_document_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        document_hash = _parse_document_hash(d.pop("documentHash"))

        tx_hash = d.pop("txHash")

        block_number = d.pop("blockNumber")

        confirmations = d.pop("confirmations")

        def _parse_revocation_time(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revocation_time_type_0 = isoparse(data)

                return revocation_time_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        revocation_time = _parse_revocation_time(d.pop("revocationTime", UNSET))

        attestation = cls(
            uid=uid,
            chain_id=chain_id,
            schema_id=schema_id,
            attester=attester,
            recipient=recipient,
            ref_uid=ref_uid,
            time=time,
            expiration_time=expiration_time,
            revocable=revocable,
            revoked=revoked,
            data=data,
            decoded=decoded,
            decode_error=decode_error,
            document_hash=document_hash,
            tx_hash=tx_hash,
            block_number=block_number,
            confirmations=confirmations,
            revocation_time=revocation_time,
        )

        attestation.additional_properties = d
        return attestation

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
