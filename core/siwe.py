"""EIP-4361 (Sign-In with Ethereum) messages: the service writes one as a challenge, and
reads one back, with its EIP-191 signature, as a proof that the caller holds an address's key.

Written here, not with the `siwe` package: its releases pin web3 7 (this project is on 8).
The grammar is the EIP's, for the fields this service writes (no `Not Before`, `Request ID`
is optional); a message of another service, another shape or a tampered one does not parse
or does not match the stored challenge (executors/proofs.py).
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from eth_account import Account
from eth_account.messages import encode_defunct
from eth_utils import to_checksum_address

VERSION = "1"
_MESSAGE = re.compile(
    r"(?P<domain>[^\s/]+) wants you to sign in with your Ethereum account:\n"
    r"(?P<address>0x[0-9a-fA-F]{40})\n\n"
    r"(?:(?P<statement>[^\n]+)\n)?\n"
    r"URI: (?P<uri>[^\s]+)\n"
    r"Version: (?P<version>[0-9]+)\n"
    r"Chain ID: (?P<chain_id>[0-9]+)\n"
    r"Nonce: (?P<nonce>[A-Za-z0-9]{8,})\n"
    r"Issued At: (?P<issued_at>[0-9T:.+\-Z]+)"
    r"(?:\nExpiration Time: (?P<expiration_time>[0-9T:.+\-Z]+))?"
    r"(?:\nRequest ID: (?P<request_id>[^\n]*))?"
    r"(?:\nResources:(?P<resources>(?:\n- [^\s]+)+))?\Z"
)


@dataclass(frozen=True)
class SiweMessage:
    domain: str  # the service's authority (host[:port])
    address: str  # lowercase
    statement: str
    uri: str
    chain_id: int
    nonce: str
    issued_at: datetime
    expiration_time: datetime | None
    resources: tuple[str, ...] = ()

    def text(self) -> str:
        """The message as signed (addresses EIP-55, times ISO 8601 with Z)."""
        lines = [f"{self.domain} wants you to sign in with your Ethereum account:",
                 to_checksum_address(self.address), "", self.statement, "",
                 f"URI: {self.uri}", f"Version: {VERSION}", f"Chain ID: {self.chain_id}",
                 f"Nonce: {self.nonce}", f"Issued At: {iso(self.issued_at)}"]
        if self.expiration_time is not None:
            lines.append(f"Expiration Time: {iso(self.expiration_time)}")
        if self.resources:
            lines += ["Resources:", *(f"- {resource}" for resource in self.resources)]
        return "\n".join(lines)


class MalformedMessage(ValueError):
    """Not an EIP-4361 message of the shape this service writes."""


def parse(text: str) -> SiweMessage:
    match = _MESSAGE.fullmatch(text)
    if match is None:
        raise MalformedMessage("The message is not an EIP-4361 (Sign-In with Ethereum) message.")
    if match["version"] != VERSION:
        raise MalformedMessage(f"EIP-4361 version {match['version']} is not version 1.")
    try:
        issued_at = _time(match["issued_at"])
        expires = _time(match["expiration_time"]) if match["expiration_time"] else None
    except ValueError:
        raise MalformedMessage("A time of the message is not ISO 8601.") from None
    resources = tuple(line[2:] for line in (match["resources"] or "").split("\n") if line)
    return SiweMessage(domain=match["domain"], address=match["address"].lower(),
                       statement=match["statement"] or "", uri=match["uri"],
                       chain_id=int(match["chain_id"]), nonce=match["nonce"],
                       issued_at=issued_at, expiration_time=expires, resources=resources)


def signer_of(text: str, signature: str) -> str | None:
    """The address (lowercase) whose key signed `text` (EIP-191 personal_sign), or None when
    the signature is not one."""
    try:
        return Account.recover_message(encode_defunct(text=text), signature=signature).lower()
    except Exception:  # eth-account's errors vary with what is wrong (length, v, s)
        return None


def iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _time(value: str) -> datetime:
    at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if at.tzinfo is None:
        raise ValueError(value)
    return at
