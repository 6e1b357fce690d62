"""A status change reaches the service last: the heartbeat thread's beat, already on its
way with the old status, cannot land after the change's own beat and leave the old status
standing for a whole interval (the service hears the executor once per interval)."""

import threading
import time

import pytest
from web3 import HTTPProvider, Web3

from executor_client import ReferenceExecutor, ServiceClient
from executors.models import Executor
from registry.models import Chain
from tests.conftest import make_key
from tests.executor_client.conftest import GWEI, KEY_A, wait_for

pytestmark = [pytest.mark.chain, pytest.mark.django_db(transaction=True)]


class SlowBeat(ServiceClient):
    """The service over HTTP; a heartbeat sent while `slow` is set is held a moment."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.slow, self.beats = False, 0

    def heartbeat(self, *args, **kwargs):
        self.beats += 1
        if self.slow:
            self.slow = False
            time.sleep(1.0)
        return super().heartbeat(*args, **kwargs)


def test_a_status_change_is_not_overtaken_by_an_older_beat(bound_chain, live_server):
    anvil = bound_chain.node.anvil
    Chain.objects.filter(pk=31337).update(max_fee_per_gas_cap=5 * GWEI)
    w3 = Web3(HTTPProvider(anvil.url))
    service = SlowBeat(live_server.url, make_key("executor"))
    ref = ReferenceExecutor(service, "anvil", KEY_A, lambda chain_id: w3)
    ref.register()
    ref.beat()  # the chain's cap, from the answer
    ref.look()
    assert ref.state == "ok"

    anvil.rpc("anvil_setNextBlockBaseFeePerGas", [hex(30 * GWEI)])
    anvil.mine(1)
    service.slow = True
    old = threading.Thread(target=ref.beat)  # the heartbeat thread's, with status ok
    old.start()
    wait_for("the old beat on its way", lambda: service.beats == 2)
    ref.look()  # above the cap: blocked_by_fees, told at once
    old.join(timeout=30)

    assert service.beats == 3
    assert Executor.objects.get(address=ref.address).status == "blocked_by_fees"
