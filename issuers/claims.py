"""What a domain says about attester addresses, and whether that proves one.

Both proofs come down to claims "this domain stands behind address A on chain C":

- DNS TXT, OpenAttestation's format: `openatts net=ethereum netId=<chainId> addr=<address>`;
- DNS TXT, ours: `eas-attester=eip155:<chainId>:<address>` (a CAIP-10 account id, as did:web
  writes it);
- did:web: a verification method whose `blockchainAccountId` is `eip155:<chainId>:<address>`.

Claims are compared case-insensitively on the address; a malformed one is no claim.
"""

import re
from dataclasses import dataclass

_ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")
_CAIP10 = re.compile(r"^eip155:([0-9]{1,19}):(0x[0-9a-fA-F]{40})$")
OUR_TXT_PREFIX = "eas-attester="


@dataclass(frozen=True)
class Claim:
    chain_id: int
    address: str  # lowercase
    source: str  # the record or method that made it, for the check's reason


def caip10(value: str, source: str) -> Claim | None:
    match = _CAIP10.match(value.strip()) if isinstance(value, str) else None
    return match and Claim(int(match[1]), match[2].lower(), source)


def txt_claim(record: str) -> Claim | None:
    """The claim of one TXT record (its strings joined), or None."""
    record = record.strip()
    if record.startswith(OUR_TXT_PREFIX):
        return caip10(record[len(OUR_TXT_PREFIX):], record)
    words = record.split()
    if not words or words[0] != "openatts":
        return None
    fields = dict(word.partition("=")[::2] for word in words[1:])
    net_id, address = fields.get("netId", ""), fields.get("addr", "")
    if fields.get("net") != "ethereum" or not net_id.isdigit() or not _ADDRESS.match(address):
        return None
    return Claim(int(net_id), address.lower(), record)


def judge(claims: list[Claim], chain_id: int, address: str, where: str) -> tuple[bool, str]:
    """(proven, why) for `address` on `chain_id` given what `where` claims."""
    address = address.lower()
    for claim in claims:
        if claim.chain_id == chain_id and claim.address == address:
            return True, f"{where} names eip155:{chain_id}:{address} ({clip(claim.source)})"
    if not claims:
        return False, f"{where} names no attester address"
    other_chains = sorted({c.chain_id for c in claims if c.address == address})
    if other_chains:
        return False, (f"{where} names {address} on chain "
                       f"{', '.join(map(str, other_chains))}, not on {chain_id}")
    others = sorted({c.address for c in claims if c.chain_id == chain_id})
    if others:
        return False, f"{where} names other addresses on chain {chain_id}: {clip(', '.join(others))}"
    return False, f"{where} names neither {address} nor chain {chain_id}"


def clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
