"""The generated clients (clients/, scripts/clients.sh; issue 24, item 2): they come out of
the live schema without a warning and as committed, the TypeScript compiles under
`tsc --strict`, and the Python client and the tRPC router type work against a live server."""

import filecmp
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.conftest import missing
from tests.factories import (
    AttestationFactory,
    ChainFactory,
    ExecutorFactory,
    IndexCursorFactory,
    SchemaFactory,
)

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ROOT / "clients"
CODEGEN = ROOT / ".cache/clients/codegen/node_modules/.bin"
TRPC_V11 = ROOT / ".cache/clients/trpc-v11/node_modules"
GENERATED = ["openapi.json", "python", "typescript/schema.d.ts", "typescript/trpc.d.ts"]
DOCUMENT = "0x" + "d0" * 32


def require_codegen() -> Path:
    """The npm tools of scripts/client_tools.sh; the test is skipped without them (failed in
    CI)."""
    if not (CODEGEN / "tsc").exists() or not shutil.which("node"):
        missing("The codegen tools (npm) are not installed", "run scripts/client_tools.sh")
    return CODEGEN


def differences(left: Path, right: Path) -> list[str]:
    if left.is_file():
        return [] if filecmp.cmp(left, right, shallow=False) else [str(right)]
    compared = filecmp.dircmp(left, right)
    found = [str(right / name) for name in
             compared.left_only + compared.right_only + compared.diff_files + compared.funny_files]
    for name in compared.common_dirs:
        found += differences(left / name, right / name)
    return found


@pytest.mark.django_db
def test_the_clients_generate_from_the_live_schema_without_a_warning_and_are_current(tmp_path):
    require_codegen()
    done = subprocess.run([str(ROOT / "scripts/clients.sh"), "--into", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warn" not in output.lower(), output
    # The schema they are made from is the one the service serves.
    served = APIClient().get("/v1/openapi.json").json()
    assert json.loads((tmp_path / "openapi.json").read_text()) == served
    stale = [path for name in GENERATED for path in differences(tmp_path / name, CLIENTS / name)]
    assert stale == [], "clients/ is not current: run scripts/clients.sh and commit"


def typescript_project(tmp_path: Path) -> Path:
    """clients/typescript beside the @trpc/client v11 of scripts/client_tools.sh."""
    if not (TRPC_V11 / "@trpc/client").is_dir():
        missing("@trpc/client v11 is not installed", "run scripts/client_tools.sh")
    project = tmp_path / "typescript"
    shutil.copytree(CLIENTS / "typescript", project)
    (project / "node_modules").symlink_to(TRPC_V11)
    return project


def test_the_typescript_types_and_examples_compile_under_tsc_strict(tmp_path):
    tsc = require_codegen() / "tsc"
    project = typescript_project(tmp_path)
    done = subprocess.run([str(tsc), "-p", "tsconfig.json"], cwd=project, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def readme_snippet(language: str, containing: str) -> str:
    """The README's code block in `language` that holds `containing`."""
    blocks = re.findall(rf"```{language}\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return next(block for block in blocks if containing in block)


def test_the_readme_trpc_snippet_compiles_in_an_esm_project_under_nodenext(tmp_path):
    # Issue 37 item 7: trpc.d.ts imported "./schema" without an extension, which an ES module
    # under moduleResolution nodenext refuses (TS2834), and every result was then `unknown`.
    tsc = require_codegen() / "tsc"
    project = typescript_project(tmp_path).parent / "esm"
    shutil.copytree(CLIENTS / "typescript", project / "clients" / "typescript")
    (project / "node_modules").symlink_to(TRPC_V11)
    (project / "package.json").write_text(json.dumps({"type": "module", "private": True}))
    (project / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "strict": True, "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext",
        "lib": ["ES2022", "ESNext.Disposable", "DOM"], "types": [], "noEmit": True,
        "skipLibCheck": False},
        "files": ["app.ts"]}))
    (project / "app.ts").write_text(
        "declare const API_KEY: string;\ndeclare const documentHash: string;\n"
        + readme_snippet("ts", "createTRPCClient")
        # Typed results, not `unknown`: each of these fails to compile on an unknown.
        + "export const names: string[] = page.results.map((chain) => chain.name);\n"
        + "export const verified: boolean[] = [verdict.verified,\n"
        + "  ...many.results.map((answer) => answer.verified)];\n")
    done = subprocess.run([str(tsc), "-p", "tsconfig.json"], cwd=project, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def verified_document(db):
    """A document attested by an executor of an indexed, active chain (31337)."""
    chain = ChainFactory(chain_id=31337, name="Anvil", confirmations=2)
    IndexCursorFactory(deployment__chain=chain, head_block=1000)
    executor = "0x" + "e1" * 20
    ExecutorFactory(chain=chain, address=executor)
    return AttestationFactory(schema=SchemaFactory(deployment__chain=chain), attester=executor,
                              document_hash=DOCUMENT, block_number=900)


@pytest.mark.django_db(transaction=True)
def test_the_python_client_verifies_a_document_and_lists_chains(
        live_server, admin_key, api_key, verified_document):
    from chain_registry_client import AuthenticatedClient
    from chain_registry_client.api.admin import admin_create_chain
    from chain_registry_client.api.chains import list_chains
    from chain_registry_client.api.verification import verify
    from chain_registry_client.models import ChainRequest, Problem, VerifyRequest

    # The admin API's Bearer scheme is the client's default; X-API-Key is named.
    admin = AuthenticatedClient(base_url=live_server.url, token=admin_key)
    api = AuthenticatedClient(base_url=live_server.url, token=api_key, prefix="",
                              auth_header_name="X-API-Key")
    created = admin_create_chain.sync_detailed(client=admin, body=ChainRequest(
        chain_id=1, name="Ethereum Mainnet", short_name="eth", is_testnet=False))
    assert created.status_code == 201 and created.headers["Location"] == "/v1/admin/chains/1"

    answer = verify.sync(client=api, body=VerifyRequest(document_hash=DOCUMENT))
    assert answer.verified is True and answer.reason is None
    assert answer.attestation_id == verified_document.uid and answer.chain_id == 31337
    missed = verify.sync(client=api, body=VerifyRequest(document_hash="0x" + "11" * 32))
    assert missed.verified is False and missed.reason == "not_found"

    page = list_chains.sync(client=api)
    assert [chain.chain_id for chain in page.results] == [1, 31337]
    testnets = list_chains.sync(client=api, is_testnet=True)
    assert [chain.name for chain in testnets.results] == ["Anvil"]
    # Errors are parsed as problem documents.
    refused = list_chains.sync(client=AuthenticatedClient(
        base_url=live_server.url, token="crk_000000000000.wrong", prefix="",
        auth_header_name="X-API-Key"))
    assert isinstance(refused, Problem) and refused.status == 401


@pytest.mark.django_db(transaction=True)
def test_the_trpc_router_type_drives_the_real_client(tmp_path, live_server, api_key,
                                                     verified_document):
    # trpc-example.ts compiled (tsc --strict) and run with @trpc/client v11 against the service.
    tsc = require_codegen() / "tsc"
    project = typescript_project(tmp_path)
    done = subprocess.run([str(tsc), "-p", "tsconfig.json", "--noEmit", "false", "--outDir",
                           "out"], cwd=project, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    script = ("const e = require('./out/trpc-example.js');"
              "e.check(e.connect(process.argv[1], process.argv[2]), process.argv[3])"
              ".then((r) => console.log(JSON.stringify(r)),"
              " (err) => { console.error(err); process.exit(1); });")
    ran = subprocess.run(["node", "-e", script, f"{live_server.url}/trpc", api_key, DOCUMENT],
                         cwd=project, capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"testnets": [31337], "chain": "Anvil", "chains": 1,
                                      "verified": True, "batch": [True]}
