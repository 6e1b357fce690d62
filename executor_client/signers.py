"""Who signs the executor's transactions. In production a remote signer that keeps the key out
of this process: any JSON-RPC server answering `eth_accounts` and `eth_signTransaction`
(Web3Signer's eth1 interface; anvil for its unlocked accounts), at EXECUTOR_SIGNER_URL. For
development, a key read from a file (EXECUTOR_KEY_FILE), never from the environment.

Whatever a signer hands back is checked before anything is sent (`check_signed`): it must be
the transaction asked for, signed by the executor's address, for the chain's id. A signer
that refuses, times out or signs anything else raises SignerError: the executor sends
nothing and holds (status `signer_error`) until a probe signs correctly again.
"""

from pathlib import Path

import requests
import rlp
from eth_account import Account
from eth_account.messages import encode_defunct

LEGACY_CHAIN_ID_OFFSET = 35  # EIP-155: v = chain id x 2 + 35 or 36


class SignerError(Exception):
    """The signer refused, did not answer, or signed something other than what was asked."""


class LocalKey:
    """A private key in this process: for development only (EXECUTOR_KEY_FILE)."""

    def __init__(self, private_key: str):
        self.account = Account.from_key(private_key)
        self.address = self.account.address.lower()

    @classmethod
    def from_file(cls, path: str) -> "LocalKey":
        """The key held in a file (a Docker secret): 0x and 64 hex digits, spaces ignored."""
        try:
            text = Path(path).read_text().strip()
        except OSError as exc:
            raise ValueError(f"EXECUTOR_KEY_FILE {path}: {exc.strerror}") from None
        try:
            return cls(text)
        except Exception:  # eth-account's own errors vary; never echo the file's content
            raise ValueError(f"EXECUTOR_KEY_FILE {path} holds no private key "
                             "(0x and 64 hex digits).") from None

    def sign(self, tx: dict) -> bytes:
        return bytes(self.account.sign_transaction(tx).raw_transaction)

    def sign_message(self, text: str) -> str:
        """The EIP-191 (personal_sign) signature of `text`: 0x + 130 hex digits."""
        return "0x" + bytes(self.account.sign_message(encode_defunct(text=text)).signature).hex()

    def __repr__(self):
        return f"LocalKey({self.address})"  # never the key


class RemoteSigner:
    """A signer over JSON-RPC: `eth_accounts` names what it holds, `eth_signTransaction`
    signs without sending (the answer is the raw transaction, as a hex string or as Clef's
    `{"raw": ...}`)."""

    def __init__(self, url: str, *, address: str | None = None, timeout: float = 10.0):
        self.url = url
        self.timeout = timeout
        self.session = requests.Session()
        self._ids = 0
        self.address = address.lower() if address else self._only_account()

    def _only_account(self) -> str:
        accounts = self.accounts()
        if len(accounts) != 1:
            raise SignerError(f"The signer at {self.url} holds {len(accounts)} accounts: name "
                              "the executor's with EXECUTOR_ADDRESS.")
        return accounts[0]

    def accounts(self) -> list[str]:
        answer = self._call("eth_accounts", [])
        if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
            raise SignerError(f"The signer at {self.url} answered eth_accounts with {answer!r:.80}.")
        return [account.lower() for account in answer]

    def sign(self, tx: dict) -> bytes:
        answer = self._call("eth_signTransaction", [_json_rpc(tx, self.address)])
        raw = answer.get("raw") if isinstance(answer, dict) else answer
        if not isinstance(raw, str) or not raw.startswith("0x"):
            raise SignerError(f"The signer at {self.url} answered eth_signTransaction with "
                              f"{answer!r:.80}.")
        try:
            return bytes.fromhex(raw[2:])
        except ValueError:
            raise SignerError(f"The signer at {self.url} answered with no transaction.") from None

    def sign_message(self, text: str) -> str:
        """The EIP-191 signature of `text` (`eth_sign`, which Web3Signer's eth1 interface and
        anvil prefix as personal_sign does), checked to be the executor's."""
        answer = self._call("eth_sign", [self.address, "0x" + text.encode().hex()])
        if not isinstance(answer, str) or not answer.startswith("0x"):
            raise SignerError(f"The signer at {self.url} answered eth_sign with {answer!r:.80}.")
        check_message_signed(text, answer, self.address)
        return answer

    def _call(self, method: str, params: list):
        self._ids += 1
        try:
            response = self.session.post(self.url, json={"jsonrpc": "2.0", "id": self._ids,
                                                         "method": method, "params": params},
                                         timeout=self.timeout)
            body = response.json()
        except requests.Timeout:
            raise SignerError(f"The signer at {self.url} did not answer {method} within "
                              f"{self.timeout} s.") from None
        except (requests.RequestException, ValueError) as exc:
            raise SignerError(f"The signer at {self.url} failed on {method}: "
                              f"{type(exc).__name__}.") from None
        if not isinstance(body, dict) or "error" in body or "result" not in body:
            error = body.get("error") if isinstance(body, dict) else body
            raise SignerError(f"The signer at {self.url} refused {method}: {error!r:.200}")
        return body["result"]

    def __repr__(self):
        return f"RemoteSigner({self.url}, {self.address})"


def configured_signer(*, signer_url: str = "", key_file: str = "", address: str = "",
                      timeout: float = 10.0):
    """The signer the configuration names: the remote signer at `signer_url`
    (EXECUTOR_SIGNER_URL; the executor's address `address`, EXECUTOR_ADDRESS, unless the
    signer holds one account only), else the key in `key_file` (EXECUTOR_KEY_FILE).
    ValueError naming what is missing or wrong."""
    if signer_url and key_file:
        raise ValueError("Set EXECUTOR_SIGNER_URL or EXECUTOR_KEY_FILE, not both.")
    if key_file:
        return LocalKey.from_file(key_file)
    if not signer_url:
        raise ValueError("Set EXECUTOR_SIGNER_URL (a remote signer) or EXECUTOR_KEY_FILE (a "
                         "file holding the key, for development).")
    if address and not (len(address) == 42 and address.startswith("0x")
                        and all(c in "0123456789abcdefABCDEF" for c in address[2:])):
        raise ValueError(f"EXECUTOR_ADDRESS {address!r} is not an address (0x and 40 hex "
                         "digits).")
    try:
        return RemoteSigner(signer_url, address=address or None, timeout=timeout)
    except SignerError as exc:
        raise ValueError(f"{exc} (with EXECUTOR_ADDRESS set, the executor starts without "
                         "asking the signer, and holds until it answers)") from None


def _json_rpc(tx: dict, address: str) -> dict:
    """A transaction as eth_signTransaction takes it: hex quantities, `from` named."""
    out = {"from": address, "to": tx["to"], "data": tx["data"], "type": "0x2"}
    for name in ("nonce", "gas", "value", "chainId", "maxFeePerGas", "maxPriorityFeePerGas",
                 "gasPrice"):
        if name in tx:
            out[name] = hex(tx[name])
    if "gasPrice" in tx:
        out["type"] = "0x0"
    return out


def check_signed(raw: bytes, asked: dict, address: str) -> None:
    """Raise SignerError unless `raw` is `asked` (nonce, fees, gas, to, value, data, chain
    id), signed by `address`: a signer that answers for another account or chain, or that
    changed the transaction, gets nothing sent."""
    try:
        signed = decode(raw)
        sender = Account.recover_transaction(raw).lower()
    except Exception as exc:  # rlp's and eth-keys' errors: not a signed transaction
        raise SignerError(f"The signer answered with no valid transaction "
                          f"({type(exc).__name__}).") from None
    if signed["chainId"] != asked["chainId"]:
        raise SignerError(f"The signer signed for chain id {signed['chainId']}, not "
                          f"{asked['chainId']}: nothing sent.")
    if sender != address.lower():
        raise SignerError(f"The signer signed as {sender}, not {address.lower()}: nothing sent.")
    differing = [name for name, value in signed.items() if name != "chainId"
                 and _normal(asked.get(name, 0 if name == "value" else None)) != value]
    if differing:
        raise SignerError(f"The signer changed the transaction ({', '.join(differing)}): "
                          "nothing sent.")


def check_message_signed(text: str, signature: str, address: str) -> None:
    """Raise SignerError unless `signature` is `address`'s signature of `text`."""
    try:
        signer = Account.recover_message(encode_defunct(text=text), signature=signature)
    except Exception:  # eth-account's errors vary with what is wrong
        raise SignerError("The signer answered with no valid message signature.") from None
    if signer.lower() != address.lower():
        raise SignerError(f"The signer signed the message as {signer.lower()}, not "
                          f"{address.lower()}.")


def decode(raw: bytes) -> dict:
    """The fields of a signed EIP-1559 (type 2) or legacy transaction, as ints and lowercase
    hex; a legacy one without EIP-155 (replayable on any chain) has chain id None."""
    if raw[:1] == b"\x02":
        chain_id, nonce, tip, max_fee, gas, to, value, data, *_ = rlp.decode(raw[1:])
        fees = {"maxPriorityFeePerGas": _int(tip), "maxFeePerGas": _int(max_fee)}
    elif raw[:1] >= b"\xc0":
        nonce, gas_price, gas, to, value, data, v, *_ = rlp.decode(raw)
        chain_id = (_int(v) - LEGACY_CHAIN_ID_OFFSET) // 2 if _int(v) >= 35 else None
        fees = {"gasPrice": _int(gas_price)}
    else:
        raise ValueError(f"a transaction of type {raw[0]}")
    return {"chainId": _int(chain_id) if isinstance(chain_id, bytes) else chain_id,
            "nonce": _int(nonce), **fees, "gas": _int(gas), "to": "0x" + to.hex(),
            "value": _int(value), "data": "0x" + data.hex()}


def _int(value: bytes) -> int:
    return int.from_bytes(value, "big")


def _normal(value):
    return value.lower() if isinstance(value, str) else value
