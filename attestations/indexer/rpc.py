"""Raw JSON-RPC over a chain client (registry.chain_client): results as the node sends them.

The indexer reads thousands of logs and calls per range; web3's formatters (AttributeDicts,
HexBytes, checksummed addresses) would cost more than the calls themselves, so it takes the
provider's answers as they come and decodes the few fields it needs.
"""

from web3 import Web3

from registry.chain_client import NoEndpointAvailable

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
    # Every endpoint timed out: the range may be what takes so long.
    return isinstance(exc, NoEndpointAvailable) and "timed out" in str(exc)


def call(w3: Web3, method: str, params: list):
    response = w3.provider.make_request(method, params)
    if "error" in response:
        raise RpcError(method, response["error"])
    return response["result"]


def batch(w3: Web3, requests: list[tuple[str, list]]) -> list:
    """The results of `requests` sent as one JSON-RPC batch, in order; any error raises."""
    if not requests:
        return []
    responses = w3.provider.make_batch_request(requests)
    if isinstance(responses, dict):  # the whole batch refused
        raise RpcError("a batch", responses.get("error", responses))
    if len(responses) != len(requests):
        raise RpcError("a batch", {"message": f"{len(responses)} answers to "
                                              f"{len(requests)} requests"})
    results = []
    for (method, _), response in zip(requests, responses):
        if "error" in response:
            raise RpcError(method, response["error"])
        results.append(response["result"])
    return results


def block_number(w3: Web3) -> int:
    return int(call(w3, "eth_blockNumber", []), 16)


def block_hashes(w3: Web3, numbers: list[int]) -> dict[int, str | None]:
    """{number: hash} of these blocks on the node's chain now (None: no such block yet)."""
    blocks = batch(w3, [("eth_getBlockByNumber", [hex(n), False]) for n in numbers])
    return {n: (b["hash"].lower() if b else None) for n, b in zip(numbers, blocks)}


def get_logs(w3: Web3, address: str, topics: list[str], from_block: int, to_block: int):
    return call(w3, "eth_getLogs", [{
        "address": address, "topics": [topics],
        "fromBlock": hex(from_block), "toBlock": hex(to_block),
    }])


def eth_calls(w3: Web3, to: str, calldata: list[str], size: int, block="latest") -> list[bytes]:
    """Many eth_calls to one contract, sent in batches of `size`: the return data of each."""
    results = []
    for start in range(0, len(calldata), size):
        chunk = calldata[start:start + size]
        answers = batch(w3, [("eth_call", [{"to": to, "data": data}, block]) for data in chunk])
        results += [bytes.fromhex(answer[2:]) for answer in answers]
    return results
