"""Finality as each chain defines it, and stalled chains (docs/decisions.md "Finality").

A chain's `finality` (registry's Chain.finality) says which blocks are final:
- `confirmations`: those with the chain's confirmations (attestations/confirmations.py),
  up to head - confirmations + 1;
- `safe`, `finalized`: those at or below the node's block of that tag
  (eth_getBlockByNumber("safe" / "finalized")).
The indexer reads the tag in the batch that reads the head, and stores the final block on
each cursor with the head (verification reads it there); the tracking reads it with the
head it counts from.

A node whose tagged block is above its own head is wrong: the answer is refused and logged,
and nothing moves (the final block stays where it was). Under a tag the final block never
goes back either: a lagging endpoint's answer does not make final records unfinal.

A chain is stalled (ChainHead.stalled_since) when no new head was seen for `stall_blocks`
block times (CHAIN_STALL_BLOCKS when it has none; never sooner than
CHAIN_STALL_MIN_SECONDS), or, under a tag, when its final block did not advance for as long
plus the lag it had when it last advanced. Each index pass judges it (also one that cannot
read the head: a node gone quiet), and each change is a `chain.stalled` / `chain.resumed`
event.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from attestations.models import ChainHead
from core import events
from registry.heads import DEFAULT_BLOCK_TIME, MAX_BLOCK_TIME, MIN_BLOCK_TIME
from registry.models import Chain

logger = logging.getLogger(__name__)
CONFIRMATIONS = Chain.Finality.CONFIRMATIONS
LEARNING = 0.2  # the weight of a new sample in the learned block time
NO_NEW_HEAD, FINALITY_STUCK = "no_new_head", "finality_not_advancing"


class FinalityRefused(ValueError):
    """The node's block of the chain's tag is above its own head."""


def tag(chain: Chain) -> str | None:
    """The block tag the chain's rule follows; None under `confirmations`."""
    return None if chain.finality == CONFIRMATIONS else chain.finality


def final_block(chain: Chain, head: int, tagged: int | None) -> int | None:
    """The newest final block at `head`; `tagged` is the node's block of the chain's tag
    (None: it has none yet). FinalityRefused when that block is above the head."""
    if chain.finality == CONFIRMATIONS:
        newest = head - max(chain.confirmations, 1) + 1
        return newest if newest >= 0 else None
    if tagged is not None and tagged > head:
        raise FinalityRefused(f"its {chain.finality} block {tagged} is above its head {head}")
    return tagged


def checked_final_block(chain: Chain, head: int, tagged: int | None,
                        previous: int | None) -> int | None:
    """final_block(), or `previous` when the node's answer is refused (logged), or would
    take a tag's final block back."""
    try:
        final = final_block(chain, head, tagged)
    except FinalityRefused as exc:
        logger.warning("Chain %s: the node's answer is refused, %s; the final block stays "
                       "at %s.", chain.chain_id, exc, previous)
        return previous
    if tag(chain) and previous is not None and (final is None or final < previous):
        return previous
    return final


def is_final(chain: Chain, block: int, final: int | None) -> bool:
    return final is not None and block <= final


def observe(chain: Chain, *, head: int | None, timestamp: int | None = None,
            final: int | None = None, now: datetime) -> ChainHead | None:
    """Record what an index pass saw of the chain (head None: it could not read it), and
    judge whether the chain is stalled."""
    with transaction.atomic():
        row = ChainHead.objects.select_for_update().filter(pk=chain.pk).first()
        if row is None:
            if head is None:
                return None
            row = ChainHead(chain=chain, head_block=head, head_at=now, head_timestamp=timestamp,
                            finality_rule=chain.finality, final_block=final, final_at=now,
                            final_lag=None if final is None else head - final)
        elif head is not None:
            _saw(row, chain, head, timestamp, final, now)
        _judge(row, chain, now)
        row.save()
    return row


def _saw(row: ChainHead, chain: Chain, head: int, timestamp: int | None, final: int | None,
         now: datetime) -> None:
    if head != row.head_block:
        if (head > row.head_block and timestamp is not None and row.head_timestamp is not None
                and timestamp >= row.head_timestamp):
            sample = (timestamp - row.head_timestamp) / (head - row.head_block)
            learned = sample if row.block_time is None else (
                (1 - LEARNING) * row.block_time + LEARNING * sample)
            row.block_time = min(MAX_BLOCK_TIME, max(MIN_BLOCK_TIME, learned))
        row.head_block, row.head_at, row.head_timestamp = head, now, timestamp
    if chain.finality != row.finality_rule:  # an administrator changed the rule
        row.finality_rule, row.final_block, row.final_at = chain.finality, final, now
        row.final_lag = None if final is None else max(0, head - final)
    elif final is not None and (row.final_block is None or final > row.final_block):
        row.final_block, row.final_at, row.final_lag = final, now, max(0, head - final)


def stall_window(row: ChainHead, chain: Chain) -> timedelta:
    blocks = chain.stall_blocks or settings.CHAIN_STALL_BLOCKS
    seconds = blocks * (row.block_time or DEFAULT_BLOCK_TIME)
    return timedelta(seconds=max(settings.CHAIN_STALL_MIN_SECONDS, seconds))


def stall_reason(row: ChainHead, chain: Chain, now: datetime) -> str:
    """Why the chain is stalled at `now`, or "" when it is not."""
    window = stall_window(row, chain)
    if now - row.head_at > window:
        return NO_NEW_HEAD
    if tag(chain) and row.final_at is not None:
        usual = timedelta(seconds=(row.final_lag or 0) * (row.block_time or DEFAULT_BLOCK_TIME))
        if now - row.final_at > window + usual:
            return FINALITY_STUCK
    return ""


def _judge(row: ChainHead, chain: Chain, now: datetime) -> None:
    reason = stall_reason(row, chain, now)
    if reason and row.stalled_since is None:
        row.stalled_since, row.stall_reason = now, reason
        logger.warning("Chain %s stalled: %s (head %s seen at %s, final block %s).",
                       chain.chain_id, reason, row.head_block, row.head_at, row.final_block)
        events.emit("chain.stalled", {**_about(row, chain), "reason": reason},
                    occurred_at=now, chain_id=chain.chain_id)
    elif not reason and row.stalled_since is not None:
        logger.info("Chain %s resumed (head %s).", chain.chain_id, row.head_block)
        events.emit("chain.resumed", {**_about(row, chain),
                                      "stalledSince": _iso(row.stalled_since)},
                    occurred_at=now, chain_id=chain.chain_id)
        row.stalled_since, row.stall_reason = None, ""
    elif reason:
        row.stall_reason = reason


def _about(row: ChainHead, chain: Chain) -> dict:
    return {"chainId": chain.chain_id, "shortName": chain.short_name,
            "headBlock": row.head_block, "headAt": _iso(row.head_at),
            "finality": chain.finality, "finalizedBlock": row.final_block}


def _iso(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")
