"""executor_client stands alone: importing it loads none of the service, and
`python -m executor_client` binds a document against the live test server and anvil in a
process that has no Django settings, no database and none of the service's apps."""

import os
import signal
import subprocess
import sys

import pytest

from attestations.indexer import index_chain
from executor_client.__main__ import main
from executors.models import Executor
from tests.anvil import ROOT
from tests.conftest import make_key

# The service's own packages and Django: none may be loaded by the executor.
SERVICE = {"django", "rest_framework", "registry", "executors", "attestations", "verification",
           "bindings", "config", "ops", "trpc"}
KEY_A = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # anvil's #1
DOCUMENT = "0x" + "e0c1" * 16


def bare_environment(**variables: str) -> dict:
    """The environment of a machine with nothing of the service: no settings module, no
    database URL, only what the executor is given."""
    return {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", **variables}


def test_importing_the_package_loads_none_of_the_service():
    script = ("import sys, executor_client, executor_client.__main__; "
              "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=bare_environment(),
                            capture_output=True, text=True, check=True).stdout.split()

    assert "executor_client.executor" in loaded and "web3" in loaded
    assert not {name for name in loaded if name.split(".")[0] in SERVICE}
    # Of the project, only the EAS primitives (the ABI and the Merkle tree): not the
    # service's ground floor.
    assert "core" not in {name.split(".")[0] for name in loaded}
    assert {name for name in loaded if name.split(".")[0] == "eas_primitives"} == {
        "eas_primitives", "eas_primitives.abi", "eas_primitives.merkle"}


def test_it_names_what_is_missing(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--chain", "anvil"], environ={"EXECUTOR_API_KEY": "k"})

    assert exited.value.code == 2
    assert "Set SERVICE_URL (or --service-url), EXECUTOR_RPC_URL (or --rpc-url)." in (
        capsys.readouterr().err)

    with pytest.raises(SystemExit):
        main(["--chain", "anvil", "--service-url", "http://127.0.0.1:9", "--rpc-url",
              "http://127.0.0.1:9"], environ={"EXECUTOR_API_KEY": "k"})
    assert ("Set EXECUTOR_SIGNER_URL (a remote signer) or EXECUTOR_KEY_FILE (a file holding "
            "the key, for development).") in capsys.readouterr().err


def test_it_reads_no_key_from_the_environment_and_no_key_file_that_holds_none(capsys, tmp_path):
    base = ["--chain", "anvil", "--service-url", "http://127.0.0.1:9", "--rpc-url",
            "http://127.0.0.1:9"]
    with pytest.raises(SystemExit):
        main(base, environ={"EXECUTOR_API_KEY": "k", "EXECUTOR_PRIVATE_KEY": KEY_A})
    assert "no longer read from EXECUTOR_PRIVATE_KEY" in capsys.readouterr().err

    (tmp_path / "key").write_text("not a key, and secret")
    for key_file in (tmp_path / "key", tmp_path / "absent"):
        with pytest.raises(SystemExit):
            main(base, environ={"EXECUTOR_API_KEY": "k", "EXECUTOR_KEY_FILE": str(key_file)})
        err = capsys.readouterr().err
        assert f"EXECUTOR_KEY_FILE {key_file}" in err and "secret" not in err


@pytest.fixture
def served(eas_chain, live_server, tmp_path):
    """The anvil chain with its document schema registered and indexed, and the environment
    that points the executor at the live server and the chain (its key in a file)."""
    node = eas_chain.node
    node.register_schema()
    assert index_chain(eas_chain.chain).ok
    (tmp_path / "key").write_text(KEY_A + "\n")
    return bare_environment(SERVICE_URL=live_server.url, EXECUTOR_API_KEY=make_key("executor"),
                            EXECUTOR_KEY_FILE=str(tmp_path / "key"),
                            EXECUTOR_RPC_URL=node.anvil.url)


def bind(api) -> str:
    response = api.post("/workflows", {"documentHash": DOCUMENT, "chainId": 31337},
                        format="json")
    assert response.status_code == 201, response.content
    return response.json()["workflowId"]


def state(api, workflow_id: str) -> str:
    return api.get(f"/workflows/{workflow_id}").json()["state"]


@pytest.mark.chain
@pytest.mark.django_db(transaction=True)
def test_python_m_executor_client_once_binds_what_is_queued_and_exits(served, api):
    workflow_id = bind(api)

    run = subprocess.run([sys.executable, "-m", "executor_client", "--chain", "anvil", "--once",
                          "--receipt-timeout", "10", "--poll-seconds", "0.1"],
                         cwd=ROOT, env=served, capture_output=True, text=True, timeout=120)

    assert run.returncode == 0, run.stderr
    assert "mined in block" in run.stdout and "done: 1 job(s)" in run.stdout
    assert state(api, workflow_id) == "submitted"
    # Its last heartbeat said it was leaving.
    assert Executor.objects.get().status == "draining"


@pytest.mark.chain
@pytest.mark.django_db(transaction=True)
def test_sigterm_stops_it_with_a_last_draining_heartbeat(served, api):
    process = subprocess.Popen([sys.executable, "-m", "executor_client", "--chain", "anvil",
                                "--poll-seconds", "0.1"],
                               cwd=ROOT, env=served, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().startswith("registered ")
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()

    assert process.returncode == 0, err
    assert "done: 0 job(s)" in out
    assert Executor.objects.get().status == "draining"
