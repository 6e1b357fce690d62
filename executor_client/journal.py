"""The executor's transactions in flight, on disk (EXECUTOR_JOURNAL, `--journal`).

Each transaction is written here before it is sent, with the jobs it binds: an executor
killed between sending and reporting, or restarted with transactions in the mempool, reads
what its predecessor sent, reports it, and keeps tending it (replacing, re-sending) instead
of leaving the jobs to be bound a second time. A small JSON file, replaced atomically (a
new file renamed over the old one, synced first): it holds only what is not yet mined.
"""

import json
import logging
import os
from pathlib import Path

logger = logging.getLogger(__name__)


class Journal:
    def __init__(self, path: str, *, chain_id: int, address: str):
        self.path = Path(path)
        self.owner = {"chainId": chain_id, "address": address.lower()}

    def load(self) -> list[dict]:
        """The entries written by an executor of the same address and chain; none if the
        file is missing or another's (logged)."""
        try:
            stored = json.loads(self.path.read_text())
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            logger.warning("Journal %s unreadable (%s): starting without it.", self.path, exc)
            return []
        if {key: stored.get(key) for key in self.owner} != self.owner:
            logger.warning("Journal %s belongs to %s on chain %s: not read.", self.path,
                           stored.get("address"), stored.get("chainId"))
            return []
        return list(stored.get("inFlight", []))

    def save(self, entries: list[dict]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        with open(temporary, "w") as file:
            json.dump({**self.owner, "inFlight": entries}, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)
