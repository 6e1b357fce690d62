"""The executor's loop: register its address on a chain, keep its lease alive with heartbeats
(a thread), and, while it may, claim jobs (one, or a batch of up to `batch`), bind them as
each job's `bindingMode` says, report the hashes (or the errors met); between claims, tend
the transactions in flight (transactions.Outbox: replaced, re-sent, reported under the hash
that was mined) and log the attestation uids of what was mined. A stop request (SIGTERM)
lets the jobs in hand finish first.

What it may do, and the status its heartbeats report, is looked at before each claim:

- `signer_error`: the signer refused, timed out or signed wrongly; it holds (claims
  nothing) until a probe (a transaction signed and checked, never sent) passes again;
- `blocked_by_fees`: what the chain asks per gas is above the chain's cap, or the node's
  fees cannot be trusted (a base fee of 0); it holds until fees fall;
- `low_funds`: its balance pays for fewer than the chain's `lowFundsBatches` batches at
  the current fees (the gas of the last claimed batch's transactions x the max fee it
  would offer): it still claims
  while it can pay for one more, and claims nothing it cannot pay for;
- else `ok` (or `busy` with jobs in hand or in flight).

Binding modes: `single` jobs are attested one transaction each; `multi` jobs of a claimed
batch together, in one multiAttest, or in several when one would take more than a quarter
of a block's gas (`_fitted`); `merkle` jobs by one attestation of the Merkle root of their
documents (executor_client/merkle.py), reported with the root.
"""

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import requests
from web3 import Web3

from executor_client.chain import Eas, by_schema
from executor_client.fees import (
    DEFAULT_BATCH_GAS,
    FeeError,
    Fees,
    Market,
    Policy,
    gas_limit,
    read_market,
)
from executor_client.journal import Journal
from executor_client.merkle import root_request
from executor_client.service import ServiceClient, ServiceError
from executor_client.signers import LocalKey, SignerError, check_signed
from executor_client.transactions import TRANSFER_GAS, Mined, Outbox

logger = logging.getLogger(__name__)
REFUSED = (403, 404, 409)  # the service's word that a job is no longer this executor's
# A multiAttest takes at most this share of a block's gas: one of more than half a block
# shares no block with another like it, and a backlog of them leaves every block half empty.
BLOCK_SHARE = 4


@dataclass
class Sent:
    """What came of one job: the transaction sent (`tx_hash`), or the error met."""

    workflow_id: str
    tx_hash: str
    error: str = ""
    eas_address: str = ""
    position: int = 0  # its place among the transaction's `Attested` logs
    merkle_root: str = ""  # bound in a Merkle batch: the root attested in `tx_hash`

    def result(self) -> dict:
        """The job's result as POST .../jobs/results takes it."""
        outcome = {"txHash": self.tx_hash} if self.tx_hash else {"error": self.error[:2000]}
        if self.tx_hash and self.merkle_root:
            outcome["merkleRoot"] = self.merkle_root
        return {"workflowId": self.workflow_id, **outcome}

    def job(self) -> dict:
        """What the transaction's record keeps of the job (transactions.InFlight.jobs)."""
        return {"workflowId": self.workflow_id, "position": self.position,
                "easAddress": self.eas_address, "merkleRoot": self.merkle_root}


class ReferenceExecutor:
    def __init__(self, service: ServiceClient, chain_ref: str, signer,
                 web3_for: Callable[[int], Web3], *, name: str = "reference-executor",
                 receipt_timeout: float = 120.0, poll_seconds: float = 2.0, batch: int = 1,
                 journal: str | None = None, resend_within: float = 30.0, out=None):
        """`signer`: a signers.RemoteSigner or LocalKey (a private key string is taken as
        a LocalKey: tests and benchmarks). `journal`: the file of transactions in flight
        (journal.py), none by default."""
        self.service = service
        self.chain_ref = chain_ref
        self.name = name
        self.receipt_timeout = receipt_timeout
        self.poll_seconds = poll_seconds
        self.batch = batch  # jobs per claim; 1: one job per claim and per report
        self.stopping = threading.Event()
        self.out = out or (lambda line: logger.info(line))
        self.signer = LocalKey(signer) if isinstance(signer, str) else signer
        self.address = self.signer.address.lower()
        self.web3_for = web3_for  # chain id -> Web3
        self.journal_path = journal
        self.resend_within = resend_within
        self.w3: Web3 | None = None
        self.eas: Eas | None = None
        self.outbox: Outbox | None = None
        self.executor_id: str | None = None
        self.pending = 0  # jobs in hand
        self.interval = 10
        # One heartbeat at a time, its status read inside: the thread's beat and a status
        # change's beat sent together could reach the service in either order, and an
        # older status left standing for a whole interval.
        self.beating = threading.RLock()
        self.policy = Policy()
        # What it saw last (once a block): the head, the prices, its balance.
        self.head: int | None = None
        self.market: Market | None = None
        self.balance: int | None = None
        self.batch_gas: int | None = None  # the gas limits of the last claimed batch's sends
        self.fee_fault = ""  # why the fees cannot be used
        self.signer_fault = ""  # why the signer cannot be used
        self.state = "ok"  # what the heartbeats say (see the module's docstring)
        self.hold_reason = ""
        self.may_claim = True

    def stop(self) -> None:
        """Finish the job in hand, then leave (SIGTERM)."""
        self.stopping.set()

    # --- the service ---------------------------------------------------------------------

    def register(self) -> None:
        registered = self.service.register(self.chain_ref, self.address, self.name,
                                           sign_message=self.signer.sign_message)
        self.executor_id = registered["executorId"]
        self.interval = registered["heartbeatIntervalSeconds"]
        if self.outbox is None:
            chain_id = registered["chainId"]
            self.w3 = self.web3_for(chain_id)
            self.eas = Eas(self.w3)
            journal = (Journal(self.journal_path, chain_id=chain_id, address=self.address)
                       if self.journal_path else None)
            self.outbox = Outbox(self.w3, self.signer, chain_id, journal=journal,
                                 report=self._report, resend_within=self.resend_within)
        self.out(f"registered {self.address} on chain {registered['chainId']} as "
                 f"{self.executor_id}")
        if registered.get("trust") == "pending":
            self.out("not trusted yet: waiting for an administrator's approval (its "
                     "attestations verify only once approved)")

    def beat(self, status: str | None = None) -> None:
        """One heartbeat (its answer carries the chain's fee policy); logged if it fails."""
        with self.beating:
            pending = self.pending + (self.outbox.jobs_in_flight() if self.outbox else 0)
            word = status or ("busy" if self.state == "ok" and pending else self.state)
            try:
                answer = self.service.heartbeat(self.chain_ref, self.executor_id, word,
                                                pending, head_block=self.head,
                                                balance_wei=self.balance)
            except (requests.RequestException, ServiceError) as exc:
                logger.warning("Heartbeat failed: %s", exc)
                if isinstance(exc, ServiceError) and exc.status == 404:
                    self.register()  # deregistered or forgotten: register again
                return
            self.policy = Policy.of(answer)

    def _heartbeats(self) -> None:
        while not self.stopping.wait(self.interval):
            self.beat()
        self.beat("draining")

    def _report(self, jobs: list[dict], tx_hash: str) -> bool | None:
        """Report `tx_hash` for `jobs` (the Outbox's replacements and mined versions): True
        taken, False refused (the jobs are no longer this executor's), None unreachable."""
        results = [{"workflowId": job["workflowId"], "txHash": tx_hash,
                    **({"merkleRoot": job["merkleRoot"]} if job.get("merkleRoot") else {})}
                   for job in jobs]
        try:
            self.service.report_many(self.chain_ref, self.executor_id, results)
        except ServiceError as exc:
            if exc.status in REFUSED:
                logger.warning("The service refused %s for %d job(s): %s", tx_hash, len(jobs),
                               exc)
                return False
            logger.warning("Reporting %s failed: %s", tx_hash, exc)
            return None
        except requests.RequestException as exc:
            logger.warning("Reporting %s failed: %s", tx_hash, exc)
            return None
        return True

    # --- looking at the chain ------------------------------------------------------------

    def look(self) -> None:
        """Read the head and, once per block, the prices and the balance; tend what is in
        flight; decide what the executor may do (the module's docstring)."""
        head = self.w3.eth.block_number
        if head != self.head or self.market is None:
            self.head = head
            try:
                self.market, self.fee_fault = read_market(self.w3), ""
            except FeeError as exc:
                self.market, self.fee_fault = None, str(exc)
            self.balance = self.w3.eth.get_balance(Web3.to_checksum_address(self.address))
        if self.signer_fault:
            self._probe_signer()
        try:
            mined = self.outbox.tend(self.market, self.policy, head)
        except SignerError as exc:  # a replacement could not be signed
            self._signer_failed(str(exc))
            mined = []
        self._log_mined(mined)
        self._decide()

    def _decide(self) -> None:
        market, policy = self.market, self.policy
        if self.signer_fault:
            self._become("signer_error", self.signer_fault, claims=False)
        elif self.fee_fault or market is None or self.balance is None:
            self._become("blocked_by_fees", self.fee_fault or "the fees are not known yet",
                         claims=False)
        elif market.blocked(policy):
            self._become("blocked_by_fees",
                         f"the chain asks {market.needed} wei per gas, above the cap of "
                         f"{policy.max_fee_per_gas_cap}", claims=False)
        else:
            per_batch = (self.batch_gas or DEFAULT_BATCH_GAS) * \
                market.offer(policy).max_fee
            if self.balance < per_batch:
                self._become("low_funds", f"the balance of {self.balance} wei pays for no "
                             f"batch ({per_batch} wei each at the current fees)", claims=False)
            elif self.balance < policy.low_funds_batches * per_batch:
                self._become("low_funds", f"the balance of {self.balance} wei pays for fewer "
                             f"than {policy.low_funds_batches} batches ({per_batch} wei each)",
                             claims=True)
            else:
                self._become("ok", "", claims=True)

    def _become(self, state: str, reason: str, *, claims: bool) -> None:
        changed = (state, claims) != (self.state, self.may_claim)
        self.state, self.hold_reason, self.may_claim = state, reason, claims
        if not changed:
            return
        if state == "ok":
            logger.warning("Resuming: the signer, the fees and the funds allow it again.")
        else:
            logger.warning("%s: %s%s", state, reason, "" if claims else "; claiming nothing")
        self.out(f"status {state}" + (f": {reason}" if reason else ""))
        if self.executor_id:
            self.beat()  # the service (and its webhooks) learn it now, not a beat later

    def _signer_failed(self, reason: str) -> None:
        logger.error("Signer: %s", reason)
        self.signer_fault = reason
        self._decide()

    def _probe_signer(self) -> None:
        """Sign (never send) a zero-value transfer to itself and check it."""
        fees = self.market.offer(self.policy) if self.market else Fees(10**9, 10**9)
        probe = {"to": Web3.to_checksum_address(self.address), "data": "0x", "value": 0,
                 "gas": TRANSFER_GAS, "nonce": 0, "chainId": self.outbox.chain_id,
                 **fees.fields()}
        try:
            check_signed(self.signer.sign(probe), probe, self.address)
        except SignerError as exc:
            self.signer_fault = str(exc)
            return
        self.signer_fault = ""

    def _log_mined(self, mined: list[Mined]) -> None:
        """Log what came of each job mined, with the uid of its attestation (read from the
        EAS contract's own logs)."""
        for seen in mined:
            receipt, jobs = seen.receipt, seen.entry.jobs
            block = receipt["blockNumber"]
            if not jobs:
                self.out(f"nonce {seen.entry.nonce}: cancellation mined in block {block}")
            elif receipt["status"] != 1:
                for job in jobs:
                    self.out(f"workflow {job['workflowId']}: reverted in block {block}")
            else:
                uids = self.eas.attested_uids(receipt, jobs[0]["easAddress"])
                for job in jobs:
                    position = job["position"]
                    uid = uids[position] if position < len(uids) else "(no Attested log)"
                    self.out(f"workflow {job['workflowId']}: mined in block {block} as {uid}")

    # --- jobs ----------------------------------------------------------------------------

    def work_once(self) -> list[Sent]:
        """Claim jobs (one, or up to `batch`), bind them, report what came of each; empty
        when nothing is queued."""
        if self.batch == 1:
            job = self.service.claim(self.chain_ref, self.executor_id)
            jobs = [] if job is None else [job]
        else:
            jobs = self.service.claim(self.chain_ref, self.executor_id, limit=self.batch)["jobs"]
        if not jobs:
            return []
        self.pending += len(jobs)
        sent_gas = self.outbox.sent_gas
        try:
            sent = self._bind(jobs)
        finally:
            self.pending -= len(jobs)
        if self.outbox.sent_gas > sent_gas:  # a batch of several transactions costs them all
            self.batch_gas = self.outbox.sent_gas - sent_gas
        if self.batch == 1:
            (one,) = sent
            self.service.report(self.chain_ref, one.workflow_id, self.executor_id,
                                **{k: v for k, v in one.result().items() if k != "workflowId"})
        else:
            self.service.report_many(self.chain_ref, self.executor_id, [s.result() for s in sent])
        for tx_hash in {done.tx_hash for done in sent if done.tx_hash}:
            self.outbox.reported(tx_hash)
        for done in sent:
            what = f"sent {done.tx_hash}" if done.tx_hash else f"error {done.error}"
            self.out(f"workflow {done.workflow_id}: {what}")
        return sent

    def _bind(self, jobs: list[dict]) -> list[Sent]:
        """Send the jobs' attestations: a transaction per `single` job, one attestation of
        the Merkle root of the `merkle` ones, one multiAttest for the others (grouped per
        schema, as the logs of its receipt will be)."""
        modes = {"single": [], "merkle": [], "multi": []}
        for job in jobs:
            modes.get(job.get("bindingMode"), modes["multi"]).append(job)
        together = [job for group in by_schema(modes["multi"]).values() for job in group]
        sent = [s for job in modes["single"] for s in self._send([job], self.eas.attest, job)]
        if modes["merkle"]:
            root, request = root_request(modes["merkle"])
            sent += self._send(modes["merkle"], self.eas.attest, request, merkle_root=root)
        for part in self._fitted(together):
            sent += self._send(part, self.eas.multi_attest, part)
        return sent

    def _fitted(self, jobs: list[dict]) -> list[list[dict]]:
        """`jobs` (grouped by schema) in as few multiAttests as keep each within a quarter
        of the block's gas (BLOCK_SHARE), by the node's estimate of them all together."""
        block_gas = self.market.block_gas if self.market else None
        if len(jobs) < 2 or not block_gas:
            return [jobs] if jobs else []
        try:
            gas = gas_limit(self.eas.multi_attest(jobs).estimate_gas(
                {"from": Web3.to_checksum_address(self.address)}))
        except Exception:  # a revert, the node: _send meets it again and reports it
            return [jobs]
        parts = min(len(jobs), -(-gas * BLOCK_SHARE // block_gas))
        size = -(-len(jobs) // parts)
        return [jobs[start:start + size] for start in range(0, len(jobs), size)]

    def _send(self, jobs: list[dict], call_of, argument, merkle_root: str = "") -> list[Sent]:
        """One transaction for `jobs`; a Merkle batch's has one Attested log, the root's."""
        sent = [Sent(job["workflowId"], "", eas_address=job.get("easAddress") or "",
                     position=0 if merkle_root else index, merkle_root=merkle_root)
                for index, job in enumerate(jobs)]
        try:
            if self.signer_fault or self.market is None:  # found while this batch was in hand
                raise SignerError(self.signer_fault) if self.signer_fault else FeeError(
                    self.fee_fault)
            tx_hash = self.outbox.send(call_of(argument), [s.job() for s in sent],
                                       self.market.offer(self.policy), self.head, self.policy)
        except SignerError as exc:
            self._signer_failed(str(exc))
            return [_failed(s, f"signer: {exc}") for s in sent]
        except Exception as exc:  # a revert in the estimate, a refused transaction, ...
            return [_failed(s, str(exc)) for s in sent]
        for s in sent:
            s.tx_hash = tx_hash
        return sent

    # --- the loop ------------------------------------------------------------------------

    def run(self, *, once: bool = False) -> list[Sent]:
        """Work until stopped; with `once`, until the queue is empty (or the executor
        holds) and what it sent is mined."""
        self.register()
        self.beat()  # the chain's fee policy, before anything is priced
        self._probe_signer()
        try:
            self.look()
        except Exception as exc:  # the node: looked at again in the loop
            logger.warning("Looking at the chain failed: %s: %s", type(exc).__name__, exc)
        self.outbox.recover(self.market, self.policy, self.head or 0)
        beats = threading.Thread(target=self._heartbeats, daemon=True)
        beats.start()
        sent: list[Sent] = []
        try:
            while not self.stopping.is_set():
                done = self._step()
                if done:
                    sent.extend(done)
                elif once:
                    break
                else:
                    self.stopping.wait(self.poll_seconds)
            self._finish()
        finally:
            self.stopping.set()
            beats.join(timeout=self.service.timeout + 1)
        return sent

    def _step(self) -> list[Sent]:
        """Look, then claim and bind if it may; what was sent (empty: nothing)."""
        try:
            self.look()
            return self.work_once() if self.may_claim else []
        except (requests.RequestException, ServiceError) as exc:
            logger.warning("Claim failed: %s", exc)
        except Exception as exc:  # the node went away, ...: looked at again next time
            logger.warning("Looking at the chain failed: %s: %s", type(exc).__name__, exc)
        return []

    def _finish(self) -> None:
        """Tend what is in flight until it is mined, or for `receipt_timeout` seconds
        without anything mined (the journal, if any, keeps the rest)."""
        deadline = time.monotonic() + self.receipt_timeout
        while self.outbox.in_flight and time.monotonic() < deadline:
            before = len(self.outbox.in_flight)
            try:
                self.look()
            except Exception as exc:
                logger.warning("Looking at the chain failed: %s: %s", type(exc).__name__, exc)
            if len(self.outbox.in_flight) < before:
                deadline = time.monotonic() + self.receipt_timeout
            time.sleep(0.2)
        if self.outbox.in_flight:
            logger.warning("%d transaction(s) not mined within %s s: nonces %s.",
                           len(self.outbox.in_flight), self.receipt_timeout,
                           sorted(self.outbox.in_flight))


def _failed(sent: Sent, error: str) -> Sent:
    sent.error, sent.position, sent.merkle_root = error, 0, ""
    return sent


@contextmanager
def stopped_by_signals(executor: ReferenceExecutor) -> Iterator[None]:
    """SIGTERM and Ctrl-C ask `executor` to stop (the job in hand finishes) while inside;
    the previous handlers come back on leaving."""
    previous = {signum: signal.signal(signum, lambda *_: executor.stop())
                for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
