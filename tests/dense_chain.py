"""Real attestations packed into few blocks on anvil, as a busy chain holds them: many
multiAttest transactions sent while the node does not mine, then mined together under a
block gas limit raised to hold them (the indexer's dense-chain tests, bench/indexer.py).
"""

from web3 import Web3

from attestations import eas

# What one multiAttest of 100 document hashes costs (about 14.6 M gas), with room to spare.
GAS_PER_ATTESTATION = 160_000


def document(n: int) -> bytes:
    """The data of the `bytes32 documentHash` schema for document n."""
    return n.to_bytes(32, "big")


def attest_densely(anvil, w3: Web3, eas_address: str, *, schema_uid: str, sender: str,
                   count: int, per_tx: int = 100, per_block: int | None = None,
                   first: int = 1) -> list[int]:
    """Attest documents first..first+count-1 in transactions of `per_tx`, `per_block` of
    them (default: all) to a block; returns the blocks that hold them. The node mines on
    demand again afterwards."""
    per_block = per_block or count
    transactions = -(-per_block // per_tx)  # a block's, each with the gas of a full one
    anvil.rpc("evm_setBlockGasLimit", [hex(GAS_PER_ATTESTATION * per_tx * transactions)])
    anvil.rpc("evm_setAutomine", [False])
    sent = []
    try:
        for block_start in range(first, first + count, per_block):
            block_end = min(first + count, block_start + per_block)
            for start in range(block_start, block_end, per_tx):
                call = eas.multi_attest_call(
                    w3, eas_address, schema_uid=schema_uid,
                    data=[document(n) for n in range(start, min(block_end, start + per_tx))])
                sent.append(call.transact({"from": Web3.to_checksum_address(sender),
                                           "gas": GAS_PER_ATTESTATION * per_tx}))
            anvil.rpc("evm_mine", timeout=120)  # thousands of attestations in one block
    finally:
        anvil.rpc("evm_setAutomine", [True])
    receipts = [w3.eth.get_transaction_receipt(tx) for tx in sent]
    failed = [r["transactionHash"].hex() for r in receipts if r["status"] != 1]
    if failed:
        raise eas.TransactionFailed(f"{len(failed)} multiAttest transaction(s) reverted")
    return sorted({r["blockNumber"] for r in receipts})
