"""Which workflows a tracking run looks at: every submitted one, and the confirmed ones whose
attestation the indexer dropped, among those a reorganisation could have reached (the
chain's rollback floor): not every workflow confirmed that day (the reorganisation itself,
end to end on anvil: test_binding_e2e.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from attestations.indexer import reorg_window
from bindings.models import Workflow, WorkflowState
from bindings.tracking import _watched, rollback_floor
from tests.factories import AttestationFactory, ChainFactory, IndexCursorFactory

pytestmark = pytest.mark.django_db

S = WorkflowState


def workflow(chain, state, *, block=None, uid="", confirmed_at=None):
    now = timezone.now()
    return Workflow.objects.create(
        chain=chain, document_hash="0x" + f"{Workflow.objects.count() + 1:064x}",
        schema_uid="0x" + "5c" * 32, state=state, deadline=now + timedelta(hours=1),
        block_number=block, attestation_uid=uid, confirmed_at=confirmed_at)


def test_a_run_watches_what_a_rollback_could_have_dropped_and_nothing_deeper():
    chain = ChainFactory(confirmations=3)
    IndexCursorFactory(deployment__chain=chain, head_block=5000)
    floor = rollback_floor(chain)
    assert floor == 5000 - 2 * reorg_window(chain)
    now = timezone.now()
    kept = AttestationFactory(deployment__chain=chain, chain=chain, block_number=floor + 5)
    submitted = workflow(chain, S.SUBMITTED)
    dropped = workflow(chain, S.CONFIRMED, block=floor, uid="0x" + "d1" * 32, confirmed_at=now)
    deeper = workflow(chain, S.CONFIRMED, block=floor - 1, uid="0x" + "d2" * 32, confirmed_at=now)
    held = workflow(chain, S.CONFIRMED, block=floor + 5, uid=kept.uid, confirmed_at=now)
    old = workflow(chain, S.CONFIRMED, block=floor + 9, uid="0x" + "d3" * 32,
                   confirmed_at=now - timedelta(days=2))
    watched = set(_watched(now, chain))
    assert submitted in watched and dropped in watched
    assert not watched & {deeper, held, old}


def test_without_a_cursor_the_confirmed_ones_are_watched_at_any_depth():
    chain = ChainFactory()
    assert rollback_floor(chain) is None
    now = timezone.now()
    gone = workflow(chain, S.CONFIRMED, block=1, uid="0x" + "d4" * 32, confirmed_at=now)
    assert set(_watched(now, chain)) == {gone}
