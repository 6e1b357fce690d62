"""The embedded default as a newcomer runs it (issue 37 item 1): `scripts/run.sh` serving,
its scheduler, and `import_chains` writing to the same SQLite file meanwhile.

Each test runs the real processes on a SQLite file of its own, whatever database the rest
of the suite uses: the processes are the service's, started as an operator starts them."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ops.schedules import PERIODIC_TASKS
from tests.anvil import free_port
from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]
CHAIN_LIST = ROOT / ".tools" / "chainlist" / "chains.json"
TASK_RUN = re.compile(r"^\d\d:\d\d:\d\d (?P<name>[^:]+): ", re.M)
STARTED = re.compile(r"scheduler started \(pid (?P<pid>\d+)\)")


def sqlite_env(tmp_path: Path, **extra) -> dict:
    """The environment of a fresh clone's embedded default, on a SQLite file in `tmp_path`."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL",
                           "DJANGO_SETTINGS_MODULE")}
    return {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "PYTHONUNBUFFERED": "1", **extra}


def manage(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def wait_for(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"no {what} within {seconds} s")


def test_periodic_tasks_keep_running_while_import_chains_writes_the_same_sqlite_file(tmp_path):
    if not CHAIN_LIST.exists():
        missing("the chain list is not fetched", "run scripts/chain_tools.sh (needs npm)")
    # A busy timeout well below the import's length: one long write transaction, as the
    # import had, would lock the scheduler out past it (and killed it).
    env = sqlite_env(tmp_path, SQLITE_TIMEOUT="5")
    manage(env, "migrate", "--no-input", "-v", "0")  # writes the periodic tasks too
    manage(env, "shell", "-c", "from django_celery_beat.models import IntervalSchedule; "
           "IntervalSchedule.objects.update(every=1)")  # every task due every second
    log = tmp_path / "scheduler.log"
    with log.open("w") as out:
        scheduler = subprocess.Popen([sys.executable, "manage.py", "run_scheduler"], cwd=ROOT,
                                     env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: TASK_RUN.search(log.read_text()), 60, "first task run")
        before = len(log.read_text())

        imported = manage(env, "import_chains", str(CHAIN_LIST))

        during = log.read_text()[before:]
        assert imported.startswith("created 1940,"), imported
        assert scheduler.poll() is None, log.read_text()  # still running
        runs = [match["name"] for match in TASK_RUN.finditer(during)]
        # Each task ran again and again while the import wrote (every second, but for the
        # moments it waited for one of the import's chunks to commit).
        assert min(runs.count(name) for name in set(runs)) >= 3, during
        assert set(runs) == set(PERIODIC_TASKS), during
        assert "database is locked" not in during
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=30)


def test_run_sh_restarts_a_scheduler_that_died_and_says_so_in_the_terminal(tmp_path):
    log, webhooks_log = tmp_path / "scheduler.log", tmp_path / "webhooks.log"
    env = sqlite_env(tmp_path, PORT=str(free_port()), SCHEDULER_LOG=str(log),
                     WEBHOOKS_LOG=str(webhooks_log))
    terminal = tmp_path / "terminal.txt"
    with terminal.open("w") as out:
        run = subprocess.Popen(["scripts/run.sh"], cwd=ROOT, env=env, stdout=out,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        first = int(wait_for(lambda: STARTED.search(_read(log)), 240, "scheduler")["pid"])
        wait_for(lambda: "Serving on" in terminal.read_text(), 60, "server")
        # Webhooks are delivered by a process of their own beside it (run_webhooks).
        wait_for(lambda: "webhooks worker started" in _read(webhooks_log), 60, "webhooks worker")

        os.kill(first, signal.SIGKILL)

        said = f"run_scheduler (pid {first}) was killed by signal 9: periodic tasks stopped"
        wait_for(lambda: said in terminal.read_text(), 30, "word of its death")
        again = wait_for(lambda: [int(m["pid"]) for m in STARTED.finditer(_read(log))][1:],
                         60, "second scheduler")
        assert again[0] != first
        text = log.read_text()  # appended to: the first run's lines are still there
        assert text.index(f"started (pid {first})") < text.index(said) < text.index(
            f"started (pid {again[0]})")
        assert run.poll() is None  # still serving
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        run.wait(timeout=60)


def _read(path: Path) -> str:
    return path.read_text() if path.exists() else ""
