"""Raw JSON-RPC over a chain client (registry.chain_client): results as the node sends them.

The indexer reads thousands of logs and calls per range; web3's formatters (AttributeDicts,
HexBytes, checksummed addresses) would cost more than the calls themselves, so it takes the
provider's answers as they come and decodes the few fields it needs.
"""

from typing import NamedTuple

from web3 import Web3

from attestations import finality
from registry.chain_client import NoEndpointAvailable
from registry.rpc_transport import ResponseTooLarge

# What providers answer when a getLogs range holds too much (geth, erigon, Alchemy, Infura,
# QuickNode, Ankr, anvil...): the indexer then shrinks the range.
_TOO_MUCH = (
    "more than", "too many", "limit exceeded", "exceeds", "exceeded", "response size",
    "range is too large", "block range", "range too large", "query timeout", "timed out",
    "query returned", "response too large", "is limited to",
)
LIMIT_EXCEEDED = -32005  # EIP-1474's "limit exceeded"


class RpcError(Exception):
    """The node answered with a JSON-RPC error."""

    def __init__(self, method: str, error: dict):
        self.code = error.get("code") if isinstance(error, dict) else None
        self.message = str(error.get("message") if isinstance(error, dict) else error)
        super().__init__(f"{method}: {self.message} (code {self.code})")


def is_range_too_large(exc: Exception) -> bool:
    """Whether a smaller block range may succeed where this failed."""
    if isinstance(exc, RpcError):
        return exc.code == LIMIT_EXCEEDED or any(marker in exc.message.lower() for marker in _TOO_MUCH)
    # Every endpoint timed out (the range may be what takes so long), or an answer was over
    # our own cap: a provider's "range too large" in all but name.
    return isinstance(exc, NoEndpointAvailable) and (
        "timed out" in str(exc) or is_over_cap(exc))


def is_over_cap(exc: Exception) -> bool:
    """Whether the transport refused an answer for its size (RPC_RESPONSE_MAX_BYTES): the
    same request will never fit, on any endpoint."""
    return isinstance(exc, NoEndpointAvailable) and ResponseTooLarge.category in str(exc)


class _Oversized:
    def __repr__(self):
        return "OVERSIZED"


# The result `batches` gives a request whose answer alone is over RPC_RESPONSE_MAX_BYTES.
OVERSIZED = _Oversized()


def call(w3: Web3, method: str, params: list):
    response = w3.provider.make_request(method, params)
    if "error" in response:
        raise RpcError(method, response["error"])
    return response["result"]


def batch(w3: Web3, requests: list[tuple[str, list]]) -> list:
    """The results of `requests` sent as one JSON-RPC batch, in order; any error raises."""
    return batch_results(requests, batch_answers(w3, requests))


def batch_results(requests: list[tuple[str, list]], answers: list[dict]) -> list:
    """The results of `answers` to `requests`; any error raises."""
    results = []
    for (method, _), response in zip(requests, answers):
        if "error" in response:
            raise RpcError(method, response["error"])
        results.append(response["result"])
    return results


def batch_answers(w3: Web3, requests: list[tuple[str, list]]) -> list[dict]:
    """The answers (each {"result"} or {"error"}) to `requests` sent as one JSON-RPC batch,
    in order; a batch refused as a whole, or answered with another count, raises."""
    if not requests:
        return []
    responses = w3.provider.make_batch_request(requests)
    if isinstance(responses, dict):  # the whole batch refused
        raise RpcError("a batch", responses.get("error", responses))
    if len(responses) != len(requests):
        raise RpcError("a batch", {"message": f"{len(responses)} answers to "
                                              f"{len(requests)} requests"})
    return responses


def batches(w3: Web3, requests: list[tuple[str, list]], size: int) -> list:
    """The results of `requests`, sent `size` to a JSON-RPC batch, in order. A batch whose
    answer is too large (over our cap, or a provider's size limit) is sent again in halves;
    a request whose answer alone is over our cap gets OVERSIZED, for the caller to report.
    Timeouts and other failures raise, as in `batch`."""
    results, start = [], 0
    while start < len(requests):
        chunk = requests[start:start + size]
        try:
            results += batch(w3, chunk)
        except Exception as exc:
            too_large = is_over_cap(exc) or (isinstance(exc, RpcError) and is_range_too_large(exc))
            if len(chunk) > 1 and too_large:
                size = len(chunk) // 2
                continue
            if len(chunk) > 1 or not is_over_cap(exc):
                raise
            results.append(OVERSIZED)
        start += len(chunk)
    return results


def block_number(w3: Web3) -> int:
    return int(call(w3, "eth_blockNumber", []), 16)


class Tip(NamedTuple):
    """What an index run reads of the chain first, in one round trip."""

    head: int
    head_hash: str
    hashes: dict[int, str | None]  # {number: hash} of the blocks asked about, now
    timestamp: int | None = None  # the head block's
    tagged: int | None = None  # the number of the block of the tag asked about (None: none)


def head_and_hashes(w3: Web3, numbers: list[int], tag: str | None = None) -> Tip:
    """The head, these blocks' hashes now, and the block of `tag` ("safe", "finalized"),
    in one batch: an index run learns the head, its finality and checks its cursors' newest
    blocks in one round trip."""
    requests = [("eth_getBlockByNumber", ["latest", False])] + [
        ("eth_getBlockByNumber", [hex(n), False]) for n in numbers]
    answers = batch_answers(w3, requests + ([("eth_getBlockByNumber", [tag, False])]
                                            if tag else []))
    # A node that does not know the tag (an error, garbage) finalises nothing; it does not
    # stop the run (attestations/finality.py).
    tag_answer = answers[-1] if tag else None
    head, *blocks = batch_results(requests, answers[:len(requests)])
    if not isinstance(head, dict):
        raise RpcError("eth_getBlockByNumber", {"message": "no latest block"})
    tag_block = tag_answer.get("result") if isinstance(tag_answer, dict) else None
    return Tip(int(head["number"], 16), head["hash"].lower(),
               {n: (b["hash"].lower() if b else None) for n, b in zip(numbers, blocks)},
               _number(head.get("timestamp")),
               _number(tag_block.get("number")) if isinstance(tag_block, dict) else None)


def head_and_final(w3: Web3, chain) -> tuple[int, int | None]:
    """(the head, the newest final block under the chain's rule) as the node says now, in
    one round trip; the latter checked as attestations.finality.checked_final_block checks
    it (None: none yet, or refused). What the tracking and live verification count from."""
    tip = head_and_hashes(w3, [], finality.tag(chain))
    return tip.head, finality.checked_final_block(chain, tip.head, tip.tagged, None)


def _number(value) -> int | None:
    """A quantity, or None for anything else."""
    try:
        return int(value, 16) if isinstance(value, str) and value[:2] == "0x" else None
    except ValueError:
        return None


def block_hashes(w3: Web3, numbers: list[int]) -> dict[int, str | None]:
    """{number: hash} of these blocks on the node's chain now (None: no such block yet)."""
    blocks = batch(w3, [("eth_getBlockByNumber", [hex(n), False]) for n in numbers])
    return {n: (b["hash"].lower() if b else None) for n, b in zip(numbers, blocks)}


def logs_filter(address: str, topics: list[str], from_block: int, to_block: int) -> list:
    """eth_getLogs' parameters: logs of `address` with any of `topics` first."""
    return [{"address": address, "topics": [topics],
             "fromBlock": hex(from_block), "toBlock": hex(to_block)}]


def get_logs(w3: Web3, address: str, topics: list[str], from_block: int, to_block: int):
    return call(w3, "eth_getLogs", logs_filter(address, topics, from_block, to_block))


def eth_calls(w3: Web3, to: str, calldata: list[str], size: int, block="latest") -> list:
    """Many eth_calls to one contract, sent in batches of `size` (smaller when an answer is
    too large): the return data of each, or OVERSIZED."""
    answers = batches(w3, [("eth_call", [{"to": to, "data": data}, block]) for data in calldata],
                      size)
    return [answer if answer is OVERSIZED else bytes.fromhex(answer[2:]) for answer in answers]


def receipts(w3: Web3, tx_hashes: list[str], size: int) -> list:
    """The receipts of these transactions (None: not known to the node), or OVERSIZED."""
    return batches(w3, [("eth_getTransactionReceipt", [h]) for h in tx_hashes], size)
