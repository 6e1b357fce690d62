"""The end-to-end demo (./scripts/demo.sh): bind a document on a local chain and watch it verify.

Starts anvil, deploys the real EAS contracts, runs the service (SQLite in a temporary folder,
runserver), registers the chain, its RPC endpoint, the contracts and their deployments
through the admin API, indexes, binds a document through POST /workflows, runs the reference
executor (manage.py run_executor --once), tracks the workflow to `confirmed`, and prints
POST /v1/verify before and after. Everything it started is stopped at the end.
"""

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
ANVIL = Path(os.environ.get(
    "ANVIL_BIN", ROOT / ".tools/node/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"))
# anvil's development account 1 is the executor (account 0 deploys the contracts). anvil
# holds its key unlocked and answers eth_signTransaction for it: here the node is also the
# executor's remote signer, and no key passes through the executor.
EXECUTOR_ADDRESS = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
CHAIN_ID = 31337


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def say(text: str) -> None:
    print(f"\n==> {text}", flush=True)


def show(label: str, body) -> None:
    print(f"    {label}: {json.dumps(body)}", flush=True)


class Demo:
    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="chain-registry-demo-"))
        self.processes: list[subprocess.Popen] = []
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.folder}/demo.sqlite3",
                    "SECRET_KEY": secrets.token_urlsafe(40), "DEBUG": "false",
                    "ALLOWED_HOSTS": "127.0.0.1,localhost", "CELERY_BROKER_URL": "",
                    "ADMIN_API_KEY": "", "API_KEY": ""}
        self.anvil_url = f"http://127.0.0.1:{free_port()}"
        self.service_url = f"http://127.0.0.1:{free_port()}"

    # processes

    def start(self, args: list[str], log: str) -> subprocess.Popen:
        out = open(self.folder / log, "w")
        process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append(process)
        return process

    def manage(self, *args: str, env: dict | None = None, echo: bool = False) -> str:
        done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env={**self.env, **(env or {})},
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        if echo:
            for line in done.stdout.splitlines():
                print(f"    {line}")
        return done.stdout

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)

    def wait_for(self, url: str, what: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                requests.get(url, timeout=1)
                return
            except requests.RequestException:
                time.sleep(0.2)
        raise SystemExit(f"{what} did not start (log in {self.folder}).")

    # the service's HTTP API

    def call(self, method: str, path: str, key_header: dict, body=None, ok=(200, 201)):
        response = requests.request(method, self.service_url + path, json=body,
                                    headers=key_header, timeout=30)
        if response.status_code not in ok:
            raise SystemExit(f"{method} {path}: {response.status_code} {response.text}")
        return response.json() if response.content else None

    def admin(self, path: str, body: dict):
        return self.call("POST", "/v1/admin/" + path, {"Authorization": f"Bearer {self.keys['admin']}"},
                         body)

    def api(self, method: str, path: str, body=None, ok=(200, 201)):
        return self.call(method, path, {"X-API-Key": self.keys["api"]}, body, ok)

    # the steps

    def run(self) -> None:
        if not ANVIL.exists():
            raise SystemExit(f"anvil is not at {ANVIL}: run scripts/chain_tools.sh first.")
        say(f"Starting anvil (chain {CHAIN_ID}, a block a second) at {self.anvil_url}")
        port = self.anvil_url.rsplit(":", 1)[1]
        self.start([str(ANVIL), "--host", "127.0.0.1", "--port", port, "--chain-id",
                    str(CHAIN_ID), "--block-time", "1"], "anvil.log")
        self.wait_for(self.anvil_url, "anvil")

        say("Deploying the real EAS contracts (SchemaRegistry, EAS) and registering the "
            "document schema `bytes32 documentHash`")
        printed = self.manage("shell", "-c", DEPLOY.format(url=self.anvil_url))
        deployed = json.loads(printed.strip().splitlines()[-1])
        print(f"    SchemaRegistry {deployed['schema_registry']}, EAS {deployed['eas']}, "
              f"document schema {deployed['documentSchema']}")

        say(f"Migrating a fresh SQLite database in {self.folder} and creating keys")
        self.manage("migrate", "--no-input", "-v", "0")
        self.keys = {scope: self.manage("create_api_key", "--name", f"demo-{scope}", "--scope",
                                        scope).strip().splitlines()[-1]
                     for scope in ("admin", "api", "executor")}

        say(f"Starting the service at {self.service_url}")
        self.start([PYTHON, "manage.py", "runserver", "--noreload",
                    self.service_url.removeprefix("http://")], "server.log")
        self.wait_for(self.service_url + "/healthz", "the service")

        say("Registering chain, RPC endpoint, contracts and deployments through the admin API")
        self.admin("chains", {"chainId": CHAIN_ID, "name": "Anvil (demo)", "shortName": "anvil",
                              "isTestnet": True, "confirmations": 2})
        self.admin("rpc", {"chainId": CHAIN_ID, "url": self.anvil_url, "provider": "anvil"})
        self.admin("categories", {"slug": "attestation", "name": "Attestation"})
        for kind, name, abi_name, address, block, tx in (
                ("schema_registry", "eas-schema-registry", "SchemaRegistry",
                 deployed["schema_registry"], deployed["schema_registry_block"],
                 deployed["schema_registry_tx"]),
                ("eas", "eas", "EAS", deployed["eas"], deployed["eas_block"], deployed["eas_tx"])):
            self.admin("contract-names", {"name": name, "displayName": abi_name,
                                          "category": "attestation"})
            version = self.admin("contract-versions", {
                "contractName": name, "version": "1.4.0", "abi": deployed["abis"][abi_name]})
            self.admin("deployments", {"chainId": CHAIN_ID, "contractVersion": version["id"],
                                       "address": address, "startBlock": block, "txHash": tx,
                                       "kind": kind})
            print(f"    {kind} at {address}")

        say("Indexing the chain (manage.py index_chain anvil)")
        self.manage("index_chain", "anvil", echo=True)

        document_file = self.folder / "diploma.txt"
        document_file.write_text(f"Diploma no. {secrets.token_hex(8)}, awarded by the demo.\n")
        sys.path.insert(0, str(ROOT))
        from core.document_hash import hash_file

        document = hash_file(document_file)  # the documentHash: SHA-256 of the file's bytes
        say(f"The document {document_file}: its documentHash is the SHA-256 of its bytes, "
            f"{document}")
        say(f"Before binding: POST /v1/verify {{documentHash: {document}}}")
        self.verify(document)

        say("Binding the document: POST /workflows")
        workflow = self.api("POST", "/workflows", {"documentHash": document, "chainId": CHAIN_ID})
        show("workflow", {k: workflow[k] for k in ("workflowId", "state", "schemaId")})

        # A new executor is untrusted until an administrator approves it (docs/security.md):
        # the administrator vouches for the executor's address on its key's allow-list, so
        # that it is trusted as soon as it proves, at registration, that it holds the key.
        executor_prefix = self.keys["executor"].split(".")[0]
        say(f"Allowing the executor's address on its key: PATCH /v1/admin/api-keys/"
            f"{executor_prefix} {{allowedAddresses: [{EXECUTOR_ADDRESS}]}}")
        self.call("PATCH", f"/v1/admin/api-keys/{executor_prefix}",
                  {"Authorization": f"Bearer {self.keys['admin']}"},
                  {"allowedAddresses": [EXECUTOR_ADDRESS]})

        say("Running the reference executor once (manage.py run_executor --chain anvil --once), "
            "signing through a remote signer (EXECUTOR_SIGNER_URL: anvil, which holds the key): "
            "it signs the service's registration challenge, then its transactions")
        self.manage("run_executor", "--chain", "anvil", "--once", "--name", "demo-executor",
                    echo=True, env={"SERVICE_URL": self.service_url,
                                    "EXECUTOR_API_KEY": self.keys["executor"],
                                    "EXECUTOR_SIGNER_URL": self.anvil_url,
                                    "EXECUTOR_ADDRESS": EXECUTOR_ADDRESS})

        say("Indexing and tracking until the workflow is confirmed (2 confirmations): what the "
            "Celery beat tasks attestations.index_chains and bindings.track_workflows do")
        index_and_track = self.in_process()
        path = f"/workflows/{workflow['workflowId']}"
        for _ in range(60):
            index_and_track()
            workflow = self.api("GET", path)
            print(f"    state: {workflow['state']}")
            if workflow["state"] in ("confirmed", "failed", "expired"):
                break
            time.sleep(1)
        for t in workflow["transitions"]:
            print(f"    {t['createdAt']}  {t['fromState'] or '-':>10} -> {t['toState']:<10} "
                  f"{t['cause']}")
        show("attestationUid", workflow["attestationUid"])

        say("After binding: POST /v1/verify")
        self.verify(document)

        say(f"The same from a shell, with the file: manage.py verify_document {document_file}")
        self.manage("verify_document", str(document_file), echo=True)
        print()

    def in_process(self):
        """The indexer and the tracker, called here on the service's database (starting a
        manage.py process for each round would take longer than the chain)."""
        os.environ.update(self.env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from attestations.indexer import index_chain
        from bindings.tracking import workflows_track
        from registry.models import Chain

        def run():
            index_chain(Chain.objects.get(pk=CHAIN_ID))
            workflows_track()

        return run

    def verify(self, document: str) -> None:
        response = requests.post(self.service_url + "/v1/verify", json={"documentHash": document},
                                 headers={"X-API-Key": self.keys["api"]}, timeout=30)
        if response.status_code == 404:
            print("    (POST /v1/verify is not part of this build yet)")
            return
        show(f"{response.status_code}", response.json())
        if response.status_code >= 500:
            log = (self.folder / "server.log").read_text().splitlines()
            print("\n".join("    | " + line for line in log[-40:]))


# Run inside `manage.py shell` (the project's settings find the EAS artifacts).
DEPLOY = """
import json
from web3 import HTTPProvider, Web3
from attestations import eas
w3 = Web3(HTTPProvider("{url}"))
sender = w3.eth.accounts[0]
d = eas.deploy_eas(w3, sender=sender)
schema = eas.register_schema(w3, d.schema_registry, "bytes32 documentHash", sender=sender)
print(json.dumps({{**d.__dict__, "documentSchema": schema,
                  "abis": {{name: eas.artifact(name)["abi"] for name in ("EAS", "SchemaRegistry")}}}}))
"""


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop what it started, then leave
    demo = Demo()
    try:
        demo.run()
    finally:
        demo.stop()


if __name__ == "__main__":
    main()
