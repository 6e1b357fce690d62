"""`manage.py follow_chains`: indexing and workflow tracking set off by each new block.

One thread per active chain with deployments to index follows its head (registry/heads.py:
a websocket subscription, or polling at the chain's block time). On each new head it queues
the chain's index task (queue `index`) with the tracking of the chain's workflows chained
after it (queue `default`): tracking then sees the blocks just indexed. Without a broker
(the embedded default) both run in this process, one chain at a time (SQLite).

Every RELOAD_SECONDS it starts following the chains that became active and stops those that
did not stay, and writes its status to the cache, which `follow_chains --check` (the compose
health check) reads. The periodic index and tracking tasks stay as a safety net. One
follower is enough; a second one is harmless (a run that finds its chain busy is folded
into the run in hand).
"""

import logging
import threading
import time

from celery import chain as task_chain
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection

from attestations.indexer import indexed_chains
from attestations.tasks import RUN_EXPIRES_SECONDS, index_one_chain
from bindings.tasks import track_chain
from registry.heads import HeadFollower

logger = logging.getLogger(__name__)
RELOAD_SECONDS = 10
STATUS_KEY = "follower:status"
STATUS_MAX_AGE = 3 * RELOAD_SECONDS  # older: the follower is stuck or gone
_in_process = threading.Lock()


def follow_up(chain_id: int) -> None:
    """What a new head of the chain sets off: index it, then track its workflows."""
    work = task_chain(index_one_chain.si(chain_id), track_chain.si(chain_id))
    if settings.CELERY_TASK_ALWAYS_EAGER:
        with _in_process:
            work.apply()
    else:
        work.apply_async(expires=RUN_EXPIRES_SECONDS)


class Follower:
    """Follows every active chain that has deployments to index until `stop` is set."""

    def __init__(self, on_head=follow_up):
        self.on_head = on_head
        self.followed: dict[int, tuple[HeadFollower, threading.Thread]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.sync()
                self.stop.wait(RELOAD_SECONDS)
        finally:
            self.close()

    def close(self) -> None:
        """Stop following every chain (their threads end within a second or so)."""
        for chain_id in list(self.followed):
            self._unfollow(chain_id)

    def sync(self) -> None:
        """Follow the chains to follow (again, if a thread ended); write the status."""
        close_old_connections()
        try:
            wanted = set(indexed_chains().values_list("chain_id", flat=True))
        except Exception:  # the database is away: go on following what is followed
            logger.warning("Cannot read the chains to follow.", exc_info=True)
            return
        for chain_id in set(self.followed) - wanted:
            self._unfollow(chain_id)
        for chain_id in wanted:
            if chain_id not in self.followed or not self.followed[chain_id][1].is_alive():
                self._follow(chain_id)
        cache.set(STATUS_KEY, {"at": time.time(), "chains": {
            str(chain_id): follower.status() for chain_id, (follower, _) in self.followed.items()
        }}, None)

    def _follow(self, chain_id: int) -> None:
        follower = HeadFollower(chain_id, lambda head: self.on_head(chain_id))
        thread = threading.Thread(target=_run_in_thread, args=(follower,),
                                  name=f"follow-{chain_id}", daemon=True)
        self.followed[chain_id] = (follower, thread)
        thread.start()
        logger.info("Following chain %s.", chain_id)

    def _unfollow(self, chain_id: int) -> None:
        follower, thread = self.followed.pop(chain_id)
        follower.stop.set()
        thread.join(timeout=10)
        logger.info("Stopped following chain %s.", chain_id)


def _run_in_thread(follower: HeadFollower) -> None:
    try:
        follower.run()
    finally:
        connection.close()  # the thread's own database connection


def follower_status() -> tuple[float | None, dict]:
    """(seconds since the follower last wrote its status, or None: never; its chains)."""
    status = cache.get(STATUS_KEY)
    if not status:
        return None, {}
    return time.time() - status["at"], status["chains"]
