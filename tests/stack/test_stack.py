"""The production stack of docker-compose.yml, started from the file itself (tests/stack/
compose.py) on this machine's PostgreSQL and Redis, with anvil and the real EAS contracts as
the chain. Only what an operator does: the README's key command, then the HTTP API through
the nginx front. No manage.py step runs the periodic work: the follower, beat and the
workers must."""

import os
import re
import secrets
import time
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
import requests
from eth_account import Account
from eth_account.messages import encode_defunct

from attestations import eas
from bench.freshness import BlockClock, VerifyWatch, describe, freshness, summary
from eas_primitives.abi import eas_abi, schema_registry_abi
from tests.anvil import ROOT, Anvil
from tests.conftest import deploy_eas_on, missing, require_anvil
from tests.stack.compose import Stack, database_url

# anvil's development accounts: 0 deploys and attests directly (a trusted attester), 1 is
# the reference executor, 2 an executor that registers and then falls silent.
EXECUTOR_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
EXECUTOR_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
SILENT_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
SILENT_ADDRESS = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
CHAIN_ID = 31337
LEASE, GRACE = 3, 3  # seconds: the silent executor goes stale, then offline, within the test
FRESH_WITHIN = 3.0  # seconds from mined to verified, at a block a second and confirmations 1
# Read from the README, as an operator would (section Running the stack).
KEY_COMMAND = re.compile(r"docker compose exec (\w+) (python manage\.py create_api_key [^`\n]*)")


def postgres_base() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        missing("PostgreSQL is not available", "run through scripts/test.sh")
    return url


@pytest.fixture
def database():
    """A fresh PostgreSQL database for the stack, dropped afterwards."""
    base = postgres_base()
    name = f"{urlsplit(base).path.strip('/') or 'stack'}_stack_{secrets.token_hex(3)}"
    admin = database_url(base, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield database_url(base, name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def redis_db(redis_url):
    """The machine's Redis (tests/conftest.py), emptied before and after."""
    url = redis_url
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()


@pytest.fixture
def chain():
    """anvil mining a block a second, the EAS contracts and the document schema deployed."""
    require_anvil()
    node = Anvil(chain_id=CHAIN_ID).start()
    try:
        eas_node = deploy_eas_on(node)
        w3, sender, deployed = eas_node.w3, eas_node.sender, eas_node.deployment
        schema = eas.register_schema(w3, deployed.schema_registry, "bytes32 documentHash",
                                     sender=sender)
        node.rpc("evm_setIntervalMining", [1])
        yield node, w3, sender, deployed, schema
    finally:
        node.stop()


@pytest.fixture
def new_stack(tmp_path, database, redis_db):
    """A Stack of docker-compose.yml, not started yet; stopped afterwards."""
    # The executor's key as compose gives it for development: a Docker secret's file.
    (tmp_path / "executor.key").write_text(EXECUTOR_KEY + "\n")
    variables = {"SECRET_KEY": secrets.token_urlsafe(40),
                 "EXECUTOR_KEY_FILE": "/run/secrets/executor_key"}
    paths = {"/run/secrets/executor_key": str(tmp_path / "executor.key"),
             "/var/lib/executor/journal.json": str(tmp_path / "journal.json")}
    # Both Redis URLs of compose on the test's Redis number (Celery's keys and the cache's
    # do not meet).
    overrides = {"EXECUTOR_LEASE_SECONDS": str(LEASE), "EXECUTOR_GRACE_SECONDS": str(GRACE),
                 "WEB_CONCURRENCY": "2"}
    running = Stack(tmp_path, variables, {"postgres": database, "redis": redis_db}, overrides,
                    paths)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def stack(new_stack):
    return new_stack.run()


def readme_keys(stack) -> dict[str, str]:
    """One key per scope, made by the README's command (run as `docker compose exec` would)."""
    readme = (ROOT / "README.md").read_text()
    match = KEY_COMMAND.search(readme)
    assert match, "the README no longer says how to create a key"
    service, line = match.groups()
    keys = {}
    for scope in ("admin", "api", "executor"):
        args = re.sub(r"--scope \S+", f"--scope {scope}", line).split()
        args = [arg if arg != "me" else f"stack-{scope}" for arg in args]
        keys[scope] = stack.exec(service, args).strip().splitlines()[-1]
    return keys


class Client:
    def __init__(self, url: str, keys: dict):
        self.url, self.keys = url, keys

    def call(self, method, path, scope, body=None, ok=(200, 201)):
        header = ({"Authorization": f"Bearer {self.keys['admin']}"} if scope == "admin"
                  else {"X-API-Key": self.keys[scope]})
        response = requests.request(method, self.url + path, json=body, headers=header,
                                    timeout=30)
        assert response.status_code in ok, f"{method} {path}: {response.status_code} {response.text}"
        return response.json()

    def admin(self, path, body):
        return self.call("POST", "/v1/admin/" + path, "admin", body)


def wait(what: str, check, timeout: float, stack: Stack, every: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            logs = "\n".join(f"--- {name}\n{stack.tail(name, 15)}"
                             for name in ("follower", "indexer", "worker", "beat", "web",
                                          "nginx"))
            raise AssertionError(f"{what}: not within {timeout} s (processes: "
                                 f"{stack.alive()})\n{logs}")
        time.sleep(every)


def register(client: Client, node, deployed) -> dict:
    """The chain at confirmations 1 (the freshness targets'), its http endpoint (returned)
    and its websocket one (anvil answers both on one port), the EAS deployments."""
    client.admin("chains", {"chainId": CHAIN_ID, "name": "Anvil (stack)", "shortName": "anvil",
                            "isTestnet": True, "confirmations": 1})
    rpc = client.admin("rpc", {"chainId": CHAIN_ID, "url": node.url, "provider": "anvil",
                               "monitoring": {"enabled": True, "intervalSeconds": 5,
                                              "timeoutMs": 2000}})
    client.admin("rpc", {"chainId": CHAIN_ID, "url": f"ws://127.0.0.1:{node.port}",
                         "provider": "anvil-ws", "monitoring": {"enabled": True}})
    client.admin("categories", {"slug": "attestation", "name": "Attestation"})
    for kind, name, abi, address, block, tx in (
            ("schema_registry", "eas-schema-registry", schema_registry_abi(),
             deployed.schema_registry, deployed.schema_registry_block, deployed.schema_registry_tx),
            ("eas", "eas", eas_abi(), deployed.eas, deployed.eas_block, deployed.eas_tx)):
        client.admin("contract-names", {"name": name, "displayName": name,
                                        "category": "attestation"})
        version = client.admin("contract-versions", {"contractName": name, "version": "1.4.0",
                                                     "abi": abi})
        client.admin("deployments", {"chainId": CHAIN_ID, "contractVersion": version["id"],
                                     "address": address, "startBlock": block, "txHash": tx,
                                     "kind": kind})
    return rpc


@pytest.mark.chain
def test_the_compose_stack_indexes_probes_verifies_confirms_and_expires_by_itself(stack, chain):
    node, w3, sender, deployed, schema = chain
    client = Client(stack.url, readme_keys(stack))
    rpc = register(client, node, deployed)
    client.admin("trusted-attesters", {"chainId": CHAIN_ID, "address": sender, "note": "stack"})

    # An executor that registers (proving it holds its key), then never beats again.
    challenge = client.call("POST", "/v1/chain-registry/anvil/challenge", "executor",
                            {"address": SILENT_ADDRESS})
    signature = Account.sign_message(encode_defunct(text=challenge["message"]), SILENT_KEY)
    silent = client.call("POST", "/v1/chain-registry/anvil/register", "executor", {
        "address": SILENT_ADDRESS, "name": "silent",
        "proof": {"message": challenge["message"],
                  "signature": "0x" + bytes(signature.signature).hex()}})

    # The follower follows the chain over its websocket (from its next look at the chains).
    wait("the follower follows the chain over the websocket", lambda: (
        check := stack.healthcheck("follower")).returncode == 0 and "websocket" in check.stdout,
        60, stack, every=1)

    # Attest directly on chain: each verifies within a block and a second or so of being
    # mined, the follower queueing the index run on the new head.
    blocks = {}
    with BlockClock(node.url) as clock, VerifyWatch(stack.url, client.keys["api"]) as watch:
        for _ in range(5):
            document = "0x" + secrets.token_hex(32)
            _, receipt = eas.attest(w3, deployed.eas, schema_uid=schema,
                                    data=bytes.fromhex(document[2:]), sender=sender)
            blocks[document] = receipt["blockNumber"]
            watch.add(document)
        wait("the attestations verify", lambda: not watch.pending, 30, stack)
    seconds = freshness(clock, watch, blocks)
    print("\n" + describe(summary(seconds, clock.block_time())))
    assert max(seconds) <= FRESH_WITHIN, seconds
    verified = client.call("POST", "/v1/verify", "api", {"documentHash": document})
    assert verified["chainId"] == CHAIN_ID and verified["attester"] == sender

    # Bind a document through POST /workflows; compose's executor service serves it once,
    # its key read from the secret's file, its address on its API key's allow-list (an
    # administrator's standing approval: docs/security.md).
    prefix = client.keys["executor"].split(".")[0]
    client.call("PATCH", f"/v1/admin/api-keys/{prefix}", "admin",
                {"allowedAddresses": [EXECUTOR_ADDRESS]})
    bound = "0x" + secrets.token_hex(32)
    workflow = client.call("POST", "/workflows", "api",
                           {"documentHash": bound, "chainId": CHAIN_ID})
    executor = stack.run_service(
        "executor", "--chain", "anvil", "--once", "--name", "stack-executor", timeout=60,
        env={"SERVICE_URL": stack.url, "EXECUTOR_API_KEY": client.keys["executor"]})
    assert executor.returncode == 0, executor.stdout + executor.stderr
    path = f"/workflows/{workflow['workflowId']}"
    done = wait("the workflow is confirmed", lambda: (body := client.call(
        "GET", path, "api"))["state"] in ("confirmed", "failed", "expired") and body, 45, stack)
    assert done["state"] == "confirmed", done
    assert client.call("POST", "/v1/verify", "api", {"documentHash": bound})["verified"]

    # The probes made the endpoint healthy.
    wait("the RPC endpoint is healthy", lambda: client.call(
        "GET", f"/v1/admin/rpc/{rpc['id']}", "admin")["probeStatus"] == "healthy", 20, stack)

    # The silent executor: stale once its lease ran out, offline after the grace (the sweep).
    executor_path = f"/v1/admin/executors/{silent['executorId']}"
    seen = wait("the silent executor goes offline", lambda: (body := client.call(
        "GET", executor_path, "admin"))["status"] == "offline" and body, 40, stack)
    changes = [(c["fromStatus"], c["toStatus"]) for c in seen["recentStatusChanges"]]
    assert ("healthy", "stale") in changes and ("stale", "offline") in changes, changes

    # Ready: schedules run by beat, a worker answers; compose's own health checks agree.
    ready = requests.get(stack.url + "/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    checks = ready.json()["checks"]
    assert checks["workers"]["workers"] and checks["schedules"]["notRunYet"] == []
    for service in ("worker", "indexer", "webhooks", "follower", "beat"):
        check = stack.healthcheck(service)
        assert check.returncode == 0, f"{service}: {check.stdout}{check.stderr}"
    assert all(code is None for code in stack.alive().values()), stack.alive()


def test_the_stack_is_not_ready_without_the_periodic_tasks(new_stack, database):
    """What compose shipped before: `migrate` wrote no periodic task, so beat had nothing to
    run. Readiness and beat's health check say so (and the test above would time out)."""

    def forget_schedules():  # the state the old `migrate` service left
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute("DELETE FROM django_celery_beat_periodictask")

    stack = new_stack.run(after_one_shots=forget_schedules)

    body = wait("readiness answers", lambda: (r := requests.get(
        stack.url + "/readyz", timeout=10)).status_code in (200, 503) and r.json(), 20, stack)
    assert body["status"] == 503, body
    assert "No enabled periodic task" in body["checks"]["schedules"]["detail"]
    assert "schedules unavailable" in body["detail"]
    beat = stack.healthcheck("beat")
    assert beat.returncode != 0 and "No enabled periodic task" in beat.stderr

