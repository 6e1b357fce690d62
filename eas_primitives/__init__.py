"""The EAS primitives the service and the reference executor (executor_client) share: the EAS
contracts' ABI (abi.py) and the Merkle trees of document hashes attested under a root
(merkle.py). Plain Python over eth-abi/eth-utils: no Django and no package of the service
(an import-linter contract in pyproject.toml holds it so)."""
