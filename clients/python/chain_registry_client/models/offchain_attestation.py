from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from dateutil.parser import isoparse

if TYPE_CHECKING:
    from ..models.offchain_attestation_decoded_type_0 import OffchainAttestationDecodedType0


T = TypeVar("T", bound="OffchainAttestation")


@_attrs_define
class OffchainAttestation:
    r"""An attestation's schema, expiry and data as its schema decodes it: on-chain and
    offchain ones alike.

        Attributes:
            uid (str):
            chain_id (int):
            schema_id (str):
            attester (str): The signer.
            recipient (str):
            ref_uid (str):
            time (datetime.datetime): When the attester says it signed: a claim, unless its uid is timestamped on chain.
            expiration_time (datetime.datetime | int | None): The expirationTime as attested: a date-time; an integer of
                seconds when it is beyond 9999-12-31 (verification counts it as never expiring); null: never expires. Example:
                2027-11-21T10:00:00Z.
            revocation_time (datetime.datetime | None): When the attester revoked it offchain (its EAS contract's
                RevokedOffchain, as indexed); null while not revoked.
            revocable (bool):
            revoked (bool): Whether it has a revocationTime.
            data (str): The attestation data as signed (ABI-encoded). Example: 0x1234.
            decoded (None | OffchainAttestationDecodedType0): The data decoded by its schema, keyed by field name (strings
                with a NUL or bytes that are not UTF-8 have them written `\xNN`; `data` is the source of truth); null when it is
                not decoded, `decodeError` says why.
            decode_error (None | str): Why `decoded` is null: the schema is not indexed (yet), does not parse, or the data
                does not decode with it (or is too long to); null when decoded.
            document_hash (None | str): The document hash, when the schema has one.
            offchain (bool): Always true here.
            version (int): The SDK's offchain version: 0-2.
            eas_address (str): The EAS contract of its EIP-712 domain.
            timestamped_at (datetime.datetime | None): When the chain timestamped its uid (EAS Timestamped, as indexed);
                null when it did not.
            timestamp_proven (bool): Whether its time is proven by the chain (timestamped); otherwise `time` is the
                attester's claim.
    """

    uid: str
    chain_id: int
    schema_id: str
    attester: str
    recipient: str
    ref_uid: str
    time: datetime.datetime
    expiration_time: datetime.datetime | int | None
    revocation_time: datetime.datetime | None
    revocable: bool
    revoked: bool
    data: str
    decoded: None | OffchainAttestationDecodedType0
    decode_error: None | str
    document_hash: None | str
    offchain: bool
    version: int
    eas_address: str
    timestamped_at: datetime.datetime | None
    timestamp_proven: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.offchain_attestation_decoded_type_0 import OffchainAttestationDecodedType0

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

        revocation_time: None | str
        if isinstance(self.revocation_time, datetime.datetime):
            revocation_time = self.revocation_time.isoformat()
        else:
            revocation_time = self.revocation_time

        revocable = self.revocable

        revoked = self.revoked

        data = self.data

        decoded: dict[str, Any] | None
        if isinstance(self.decoded, OffchainAttestationDecodedType0):
            decoded = self.decoded.to_dict()
        else:
            decoded = self.decoded

        decode_error: None | str
        decode_error = self.decode_error

        document_hash: None | str
        document_hash = self.document_hash

        offchain = self.offchain

        version = self.version

        eas_address = self.eas_address

        timestamped_at: None | str
        if isinstance(self.timestamped_at, datetime.datetime):
            timestamped_at = self.timestamped_at.isoformat()
        else:
            timestamped_at = self.timestamped_at

        timestamp_proven = self.timestamp_proven

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
                "revocationTime": revocation_time,
                "revocable": revocable,
                "revoked": revoked,
                "data": data,
                "decoded": decoded,
                "decodeError": decode_error,
                "documentHash": document_hash,
                "offchain": offchain,
                "version": version,
                "easAddress": eas_address,
                "timestampedAt": timestamped_at,
                "timestampProven": timestamp_proven,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.offchain_attestation_decoded_type_0 import OffchainAttestationDecodedType0

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

        def _parse_revocation_time(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revocation_time_type_0 = isoparse(data)

                return revocation_time_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revocation_time = _parse_revocation_time(d.pop("revocationTime"))

        revocable = d.pop("revocable")

        revoked = d.pop("revoked")

        data = d.pop("data")

        def _parse_decoded(data: object) -> None | OffchainAttestationDecodedType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decoded_type_0 = OffchainAttestationDecodedType0.from_dict(data)

                return decoded_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OffchainAttestationDecodedType0, data)

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

        offchain = d.pop("offchain")

        version = d.pop("version")

        eas_address = d.pop("easAddress")

        def _parse_timestamped_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                timestamped_at_type_0 = isoparse(data)

                return timestamped_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        timestamped_at = _parse_timestamped_at(d.pop("timestampedAt"))

        timestamp_proven = d.pop("timestampProven")

        offchain_attestation = cls(
            uid=uid,
            chain_id=chain_id,
            schema_id=schema_id,
            attester=attester,
            recipient=recipient,
            ref_uid=ref_uid,
            time=time,
            expiration_time=expiration_time,
            revocation_time=revocation_time,
            revocable=revocable,
            revoked=revoked,
            data=data,
            decoded=decoded,
            decode_error=decode_error,
            document_hash=document_hash,
            offchain=offchain,
            version=version,
            eas_address=eas_address,
            timestamped_at=timestamped_at,
            timestamp_proven=timestamp_proven,
        )

        offchain_attestation.additional_properties = d
        return offchain_attestation

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
