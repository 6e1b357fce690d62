"""gunicorn.conf.py: each worker freezes its loaded heap before serving."""

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"


def test_a_worker_freezes_everything_loaded_before_its_first_request():
    hooks = runpy.run_path(str(CONF))
    assert gc.get_freeze_count() == 0
    try:
        hooks["post_worker_init"](worker=None)
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    # The whole framework and every view: far more than a bare interpreter holds.
    assert frozen > 100_000
