"""What the executor offers for gas, and when it replaces a transaction (docs/decisions.md,
"The executor's transactions").

A new transaction offers `2 x next base fee + tip` (EIP-1559), or the node's gas price on a
chain without a base fee, never more than the chain's cap (`maxFeePerGasCap`, from each
heartbeat's answer). A replacement keeps the nonce and raises both fees by at least the
replacement minimum nodes ask for (10 %), and to what the chain asks now if that is more,
again up to the cap. When what the chain asks now (next base fee + tip) is above the cap,
the executor holds (`blocked_by_fees`) until it falls.
"""

from dataclasses import dataclass

GWEI = 10**9
DEFAULT_BATCH_GAS = 300_000  # a batch's gas before the first is estimated (for the funds rule)


def gas_limit(estimate: int) -> int:
    """A transaction's gas limit: a fifth more than the node's estimate."""
    return estimate * 6 // 5


class FeeError(Exception):
    """The node's fee answers cannot be used (a base fee of 0 on a chain that has one)."""


@dataclass(frozen=True)
class Policy:
    """The chain's fee policy, as the service's heartbeat answers give it."""

    max_fee_per_gas_cap: int | None = None  # wei per gas; None: no cap
    replace_after_blocks: int = 3
    low_funds_batches: int = 10

    @classmethod
    def of(cls, heartbeat: dict) -> "Policy":
        cap = heartbeat.get("maxFeePerGasCap")
        return cls(int(cap) if cap is not None else None,
                   heartbeat.get("replaceAfterBlocks", 3), heartbeat.get("lowFundsBatches", 10))


@dataclass(frozen=True)
class Fees:
    """What a transaction offers: maxFeePerGas and maxPriorityFeePerGas (type 2), or, on a
    chain without a base fee, its gas price (`tip` None)."""

    max_fee: int
    tip: int | None

    def fields(self) -> dict:
        if self.tip is None:
            return {"gasPrice": self.max_fee}
        return {"maxFeePerGas": self.max_fee, "maxPriorityFeePerGas": self.tip}

    @classmethod
    def of(cls, tx: dict) -> "Fees":
        if "gasPrice" in tx:
            return cls(tx["gasPrice"], None)
        return cls(tx["maxFeePerGas"], tx["maxPriorityFeePerGas"])


@dataclass(frozen=True)
class Market:
    """What the chain asks now: the next block's base fee and the node's suggested tip, or
    (`base_fee` None) its gas price; and the latest block's gas limit (None: not known)."""

    base_fee: int | None
    tip: int
    block_gas: int | None = None

    @property
    def needed(self) -> int:
        """The least maxFeePerGas (or gas price) that the next block includes."""
        return self.tip if self.base_fee is None else self.base_fee + self.tip

    def blocked(self, policy: Policy) -> bool:
        cap = policy.max_fee_per_gas_cap
        return cap is not None and self.needed > cap

    def offer(self, policy: Policy) -> Fees:
        """The fees of a new transaction (a price above the cap is the caller's to refuse)."""
        if self.base_fee is None:
            return Fees(_capped(self.tip, policy), None)
        max_fee = _capped(2 * self.base_fee + self.tip, policy)
        return Fees(max_fee, min(self.tip, max_fee))

    def covered_by(self, fees: Fees) -> bool:
        """Whether a transaction offering `fees` is included at these prices."""
        return fees.max_fee >= self.needed and (fees.tip is None or fees.tip >= self.tip)


def replacement(old: Fees, market: Market, policy: Policy) -> Fees | None:
    """The fees that replace `old`: both at least 10 % more (the nodes' minimum), and what
    the market asks if more; None when the cap leaves no room for that (the transaction
    waits as it is)."""
    if old.tip is None:
        price = max(_bumped(old.max_fee), market.tip)
        return Fees(price, None) if _capped(price, policy) == price else None
    tip = max(_bumped(old.tip), market.tip)
    max_fee = max(_bumped(old.max_fee), 2 * (market.base_fee or 0) + tip)
    max_fee = _capped(max_fee, policy)
    if max_fee < _bumped(old.max_fee) or max_fee < tip:
        return None
    return Fees(max_fee, tip)


def _bumped(value: int) -> int:
    return -(-value * 11 // 10)  # 10 % more, rounded up


def _capped(value: int, policy: Policy) -> int:
    cap = policy.max_fee_per_gas_cap
    return value if cap is None else min(value, cap)


def read_market(w3) -> Market:
    """The prices the chain asks now (the latest block's fee history: the next block's base
    fee is its last entry, what anvil_setNextBlockBaseFeePerGas sets included). A base fee of 0
    is refused: no EIP-1559 chain reaches it (the adjustment cannot take it below 7 wei),
    and a transaction priced from it would never be mined."""
    latest = w3.eth.get_block("latest")
    if latest.get("baseFeePerGas") is None:
        return Market(None, w3.eth.gas_price, latest.get("gasLimit"))
    history = w3.eth.fee_history(1, latest["number"])
    base_fee = history["baseFeePerGas"][-1]
    if history["oldestBlock"] != latest["number"]:  # an answer of another block: not trusted
        base_fee = max(base_fee, latest["baseFeePerGas"])
    if latest["baseFeePerGas"] == 0 or base_fee == 0:
        raise FeeError(f"The node reports a base fee of 0 (block {latest['number']}): "
                       "refused, nothing is priced from it.")
    return Market(base_fee, w3.eth.max_priority_fee, latest.get("gasLimit"))
