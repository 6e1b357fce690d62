"""The executor's transactions from signing to mining, each tracked by its nonce.

`send` signs a transaction (through the signer, checked: signers.check_signed), writes it to
the journal, sends it. `tend`, called once per loop, looks at every nonce in flight:

- mined (the account's mined count passed it): the version that was mined is found among
  the hashes sent under the nonce and, if it is not the one the service holds, reported
  under it (a replacement that lost the race): a batch is never bound twice;
- dropped (the node knows none of its versions): sent again as it was; if the node refuses
  it (the base fee rose past it), replaced at the current fees. A dropped transaction whose
  jobs the service may have queued again meanwhile (dropped longer than `resend_within`) is
  cancelled instead: its nonce is filled by a zero-value transfer to the executor itself;
- not mined after the chain's `replaceAfterBlocks`: sent again as it was when its fees
  still cover what the chain asks, else replaced (fees.replacement: +10 % at least, up to
  the cap). A replacement is reported to the service before it is sent, so that the
  service never tracks a transaction it does not know of.

`recover` runs at start: the journal's transactions are tended again, the mempool's
transactions of the account that no journal names are adopted (cancelled if they get
stuck: their jobs are unknown), and a gap below the highest nonce in flight is filled with
a zero-value self-transfer, so that later transactions are not stuck behind it.
"""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from eth_utils import keccak
from web3 import Web3
from web3.exceptions import TransactionNotFound, Web3RPCError

from executor_client.fees import (
    FeeError,
    Fees,
    Market,
    Policy,
    gas_limit,
    read_market,
    replacement,
)
from executor_client.journal import Journal
from executor_client.signers import check_signed

logger = logging.getLogger(__name__)
TRANSFER_GAS = 21_000
# What a node says when a transaction's fees are too low to enter its pool now.
_UNDERPRICED = ("underpriced", "base fee", "fee cap", "max fee per gas less", "fee too low")


@dataclass
class InFlight:
    """One nonce in flight: every version sent under it, the newest signed."""

    nonce: int
    tx: dict  # the newest version, as signed (to, data, value, gas, nonce, chainId, fees)
    hashes: list[str]  # every version sent, oldest first
    raw: str  # the newest version, signed; "" for a transaction adopted from the mempool
    sent_at: int  # the head when the newest version went out
    jobs: list[dict] = field(default_factory=list)  # whose attestation it carries; [] none
    reported: str = ""  # the hash the service holds for the jobs
    missing_since: float | None = None  # when the node was first seen not to know it
    checked_at: int = -1  # the head when it was last looked at (once a block is enough)

    @property
    def fees(self) -> Fees:
        return Fees.of(self.tx)


@dataclass
class Mined:
    """A transaction of the executor seen mined, under `tx_hash`."""

    entry: InFlight
    tx_hash: str
    receipt: dict


# report(jobs, tx_hash): True when the service took the hash for the jobs, False when it
# refused (the jobs are no longer this executor's), None when it could not be asked.
Report = Callable[[list[dict], str], bool | None]


class Outbox:
    def __init__(self, w3: Web3, signer, chain_id: int, *, journal: Journal | None = None,
                 report: Report | None = None, resend_within: float = 30.0):
        self.w3, self.signer, self.chain_id = w3, signer, chain_id
        self.address = signer.address.lower()
        self.journal = journal
        self.report = report or (lambda jobs, tx_hash: True)
        self.resend_within = resend_within
        self.in_flight: dict[int, InFlight] = {}
        self.unreported: list[tuple[list[dict], str]] = []  # mined, the service not told yet
        self.sent_gas = 0  # the gas limits of every new transaction sent, summed
        self.lock = threading.RLock()
        self._next = 0

    # --- sending -------------------------------------------------------------------------

    def send(self, call, jobs: list[dict], fees: Fees, head: int,
             policy: Policy | None = None) -> str:
        """Sign and send a contract call carrying `jobs`; its hash. Refused as underpriced
        (the base fee rose since the prices were read), it is priced again and sent once
        more, within `policy`'s cap. Raises SignerError (the signer failed: nothing sent) or
        the node's refusal."""
        policy = policy or Policy()
        with self.lock:
            for attempt in range(2):
                nonce = max(self._next, self._count("pending" if attempt else "latest"))
                built = call.build_transaction({"from": Web3.to_checksum_address(self.address),
                                                "chainId": self.chain_id, "nonce": nonce,
                                                **fees.fields()})
                gas = gas_limit(built["gas"])
                tx = {"to": built["to"], "data": built["data"], "value": built.get("value", 0),
                      "gas": gas, "nonce": nonce, "chainId": self.chain_id, **fees.fields()}
                entry = self._signed(InFlight(nonce, tx, [], "", head, jobs))
                self.in_flight[nonce] = entry
                self._save()  # before sending: a crash now leaves a record of it
                try:
                    self._send_raw(entry.raw)
                except Web3RPCError as exc:
                    del self.in_flight[nonce]
                    self._save()
                    if attempt == 0 and "nonce" in str(exc).lower():
                        continue  # another sender used the key: count again
                    fresh = self._fresh() if _underpriced(exc) else None
                    if attempt == 0 and fresh is not None and not fresh.blocked(policy):
                        fees = fresh.offer(policy)  # the base fee rose since the look
                        continue
                    raise
                self._next = nonce + 1
                self.sent_gas += gas
                return entry.hashes[-1]
        raise RuntimeError("unreachable")

    def _signed(self, entry: InFlight) -> InFlight:
        """`entry` with its transaction signed (checked) and the new hash appended."""
        raw = self.signer.sign({**entry.tx, "to": Web3.to_checksum_address(entry.tx["to"])})
        check_signed(raw, entry.tx, self.address)
        entry.raw = "0x" + raw.hex()
        entry.hashes.append("0x" + keccak(raw).hex())
        return entry

    def _send_raw(self, raw: str) -> None:
        self.w3.eth.send_raw_transaction(raw)

    def reported(self, tx_hash: str) -> None:
        """The service took `tx_hash` for the jobs of the transaction that carries it."""
        with self.lock:
            for entry in self.in_flight.values():
                if entry.hashes and entry.hashes[-1] == tx_hash:
                    entry.reported = tx_hash
            self._save()

    # --- tending -------------------------------------------------------------------------

    def tend(self, market: Market | None, policy: Policy, head: int) -> list[Mined]:
        """One look at every nonce in flight (the module's docstring). `market` None: the
        fees cannot be read now (nothing is re-priced). Returns what was seen mined."""
        with self.lock:
            self._report_unreported()
            if not self.in_flight:
                return []
            mined_count = self._count("latest")
            seen = []
            for nonce in sorted(self.in_flight):
                entry = self.in_flight[nonce]
                if nonce < mined_count:
                    del self.in_flight[nonce]
                    found = self._mined(entry)
                    if found is not None:
                        seen.append(found)
                    continue
                self._tend_pending(entry, market, policy, head)
            self._save()
            return seen

    def _mined(self, entry: InFlight) -> Mined | None:
        for tx_hash in reversed(entry.hashes):
            try:
                receipt = self.w3.eth.get_transaction_receipt(tx_hash)
            except TransactionNotFound:
                continue
            if entry.jobs and tx_hash != entry.reported:
                logger.info("Nonce %d was mined as %s, not %s as reported: reporting it.",
                            entry.nonce, tx_hash, entry.reported or "(none)")
                self.unreported.append((entry.jobs, tx_hash))
                self._report_unreported()
            return Mined(entry, tx_hash, receipt)
        logger.warning("Nonce %d was used by a transaction this executor did not send (%s): "
                       "the service queues its jobs again when it misses them.", entry.nonce,
                       ", ".join(entry.hashes))
        return None

    def _report_unreported(self) -> None:
        waiting, self.unreported = self.unreported, []
        for jobs, tx_hash in waiting:
            if self.report(jobs, tx_hash) is None:
                self.unreported.append((jobs, tx_hash))  # the service again, next time

    def _tend_pending(self, entry: InFlight, market, policy: Policy, head: int) -> None:
        if head <= entry.checked_at:
            return
        entry.checked_at = head
        if entry.jobs and not entry.reported:
            # The first report failed: tell the service now, or give the nonce up.
            told = self.report(entry.jobs, entry.hashes[-1])
            if told is None:
                return
            if told is False:
                self._cancel(entry, market, policy, head, "its jobs are no longer this executor's")
                return
            entry.reported = entry.hashes[-1]
        if not self._known(entry):
            self._dropped(entry, market, policy, head)
        elif head - entry.sent_at >= policy.replace_after_blocks:
            self._stuck(entry, market, policy, head)

    def _known(self, entry: InFlight) -> bool:
        for tx_hash in reversed(entry.hashes):
            try:
                if self.w3.eth.get_transaction(tx_hash) is not None:
                    entry.missing_since = None
                    return True
            except TransactionNotFound:
                pass
        return False

    def _dropped(self, entry: InFlight, market, policy: Policy, head: int) -> None:
        now = time.time()
        if entry.missing_since is None:
            entry.missing_since = now
        if not entry.raw or (entry.jobs and now - entry.missing_since > self.resend_within):
            self._cancel(entry, market, policy, head,
                         f"dropped {now - entry.missing_since:.0f} s ago")
            return
        try:
            self._send_raw(entry.raw)
        except Web3RPCError as exc:
            if not _underpriced(exc):
                logger.warning("Re-sending dropped nonce %d (%s) failed: %s", entry.nonce,
                               entry.hashes[-1], exc)
                return
            self._replace(entry, market, policy, head, "dropped, and under the base fee now")
            return
        entry.sent_at = head
        logger.warning("Nonce %d (%s) was dropped from the mempool: sent again.", entry.nonce,
                       entry.hashes[-1])

    def _stuck(self, entry: InFlight, market, policy: Policy, head: int) -> None:
        if not entry.raw:  # adopted from the mempool: its jobs are unknown
            self._cancel(entry, market, policy, head, "stuck, and sent by a predecessor")
        elif market is not None and market.covered_by(entry.fees):
            try:  # its fees are enough: the node may just not have passed it on
                self._send_raw(entry.raw)
            except Web3RPCError:
                pass  # "already known"
            entry.sent_at = head
        else:
            self._replace(entry, market, policy, head,
                          f"not mined in {head - entry.sent_at} blocks")

    def _fresh(self) -> Market | None:
        """The prices now, read again before a replacement is priced (the block's look may
        be a moment old, and a replacement the node refuses would leave the service a
        candidate that never exists); None when they cannot be used."""
        try:
            return read_market(self.w3)
        except FeeError:
            return None

    def _replace(self, entry: InFlight, market, policy: Policy, head: int, why: str) -> None:
        market = market and self._fresh()
        if market is None or market.blocked(policy):
            return  # the fees are above the cap (or unreadable): the executor holds
        fees = replacement(entry.fees, market, policy)
        if fees is None:
            return  # the cap leaves no room for a replacement: it waits as it is
        old = entry.hashes[-1]
        candidate = InFlight(entry.nonce, {**_without_fees(entry.tx), **fees.fields()},
                             list(entry.hashes), "", head, entry.jobs)
        self._signed(candidate)
        new = candidate.hashes[-1]
        if entry.jobs:
            told = self.report(entry.jobs, new)  # before it exists: never untracked
            if told is None:
                return
            if told is False:
                self._cancel(entry, market, policy, head, "its jobs are no longer this executor's")
                return
        try:
            self._send_raw(candidate.raw)
        except Web3RPCError as exc:
            logger.warning("Replacing nonce %d (%s) failed: %s", entry.nonce, old, exc)
            return
        candidate.reported = new if entry.jobs else ""
        self.in_flight[entry.nonce] = candidate
        logger.warning("Nonce %d %s: replaced %s by %s (maxFeePerGas %s -> %s).", entry.nonce,
                       why, old, new, entry.fees.max_fee, fees.max_fee)

    def _cancel(self, entry: InFlight, market, policy: Policy, head: int, why: str) -> None:
        """Fill the nonce with a zero-value transfer to the executor itself (its jobs, if
        any, are left to the service, which queues them again when it misses them)."""
        market = market and self._fresh()
        if market is None or market.blocked(policy):
            return
        fees = (replacement(entry.fees, market, policy) if entry.hashes
                else market.offer(policy))
        if fees is None:
            return
        cancel = InFlight(entry.nonce, _transfer(self.address, entry.nonce, self.chain_id, fees),
                          list(entry.hashes), "", head)
        self._signed(cancel)
        try:
            self._send_raw(cancel.raw)
        except Web3RPCError as exc:
            logger.warning("Cancelling nonce %d failed: %s", entry.nonce, exc)
            return
        self.in_flight[entry.nonce] = cancel
        logger.warning("Nonce %d %s: cancelled by %s (a zero-value transfer to itself).",
                       entry.nonce, why, cancel.hashes[-1])

    # --- starting again ------------------------------------------------------------------

    def recover(self, market: Market | None, policy: Policy, head: int) -> None:
        """Take up what a predecessor left in flight (the module's docstring)."""
        with self.lock:
            mined_count = self._count("latest")
            for stored in self.journal.load() if self.journal else []:
                self.in_flight[stored["nonce"]] = InFlight(**stored)
            for nonce, tx in self._mempool().items():
                if nonce >= mined_count and nonce not in self.in_flight:
                    self.in_flight[nonce] = _adopted(tx, self.chain_id, head)
            if self.in_flight:
                logger.warning("Taking up %d transaction(s) in flight: nonces %s.",
                               len(self.in_flight), sorted(self.in_flight))
            top = max(self.in_flight, default=mined_count - 1)
            for nonce in range(mined_count, top):
                if nonce not in self.in_flight:
                    gap = InFlight(nonce, {}, [], "", head)
                    self._cancel(gap, market, policy, head, "is a gap below nonces in flight")
            self._next = max(top + 1, self._count("pending"))
            self._save()

    def _mempool(self) -> dict[int, dict]:
        """The account's transactions in the node's mempool (txpool_content), by nonce; none
        when the node does not say (its gaps are then found from the journal only)."""
        try:
            answer = self.w3.provider.make_request("txpool_content", [])
        except Exception as exc:  # the node went away: the next tend will see
            logger.warning("Reading the mempool failed: %s", exc)
            return {}
        if not isinstance(answer.get("result"), dict):
            logger.info("The node does not list its mempool (txpool_content): gaps are found "
                        "from the journal only.")
            return {}
        ours = {}
        for section in ("pending", "queued"):
            for address, by_nonce in (answer["result"].get(section) or {}).items():
                if address.lower() == self.address:
                    ours.update({int(nonce): tx for nonce, tx in by_nonce.items()})
        return ours

    # --- state ---------------------------------------------------------------------------

    def jobs_in_flight(self) -> int:
        with self.lock:  # asked by the heartbeats' thread
            return sum(len(entry.jobs) for entry in self.in_flight.values())

    def _count(self, block: str) -> int:
        return self.w3.eth.get_transaction_count(Web3.to_checksum_address(self.address), block)

    def _save(self) -> None:
        if self.journal is not None:
            self.journal.save([asdict(entry) for entry in self.in_flight.values()])


def _underpriced(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(words in text for words in _UNDERPRICED)


def _without_fees(tx: dict) -> dict:
    return {k: v for k, v in tx.items()
            if k not in ("gasPrice", "maxFeePerGas", "maxPriorityFeePerGas")}


def _transfer(address: str, nonce: int, chain_id: int, fees: Fees) -> dict:
    return {"to": address, "data": "0x", "value": 0, "gas": TRANSFER_GAS, "nonce": nonce,
            "chainId": chain_id, **fees.fields()}


def _adopted(tx: dict, chain_id: int, head: int) -> InFlight:
    """A transaction of the account found in the mempool, sent by a predecessor that left
    no journal: tracked, but never re-signed as it was (its jobs are unknown)."""
    number = lambda name: int(tx[name], 16)  # noqa: E731
    fees = ({"gasPrice": number("gasPrice")} if "maxFeePerGas" not in tx else
            {"maxFeePerGas": number("maxFeePerGas"),
             "maxPriorityFeePerGas": number("maxPriorityFeePerGas")})
    fields = {"to": tx.get("to") or "", "data": tx.get("input", "0x"), "value": number("value"),
              "gas": number("gas"), "nonce": number("nonce"), "chainId": chain_id, **fees}
    return InFlight(fields["nonce"], fields, [tx["hash"]], "", head)
