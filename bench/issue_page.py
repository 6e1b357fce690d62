"""The issuer pages in Debian's Chromium against gunicorn: hashing speed in the browser and
1,000 files from the drop to all confirmed.

1. Hashing: files picked on /issue are hashed by the page's Web Workers (the same hashing as
   /verify); the page's own clock (`window.issueTimings`) gives MB/s for `--small` files of
   1 MiB (Web Crypto's SHA-256, each read whole) and for one `--large-mib` file (read in
   4 MiB slices, SHA-256 by @noble/hashes).
2. End to end: `--files` distinct 2 KiB files picked, hashed, submitted ("Bind") and
   followed on the run's page until every one is confirmed, on an anvil chain with the real
   EAS contracts in binding mode `merkle` (confirmations 1), the reference executor
   claiming 250 jobs at a time and this process mining a block, indexing and tracking in a
   loop (what `follow_chains` does on every new block). Then the receipt (JSON) and the ZIP
   of all slips are downloaded and timed.

    .venv/bin/python bench/issue_page.py [--files 1000] [--small 200] [--large-mib 128]

Database: a fresh local PostgreSQL `chain_registry_bench_issue` each run (DATABASE_URL to
use another); needs anvil (scripts/chain_tools.sh), chromium and @noble/hashes
(scripts/client_tools.sh, scripts/web_assets.sh).
"""

import argparse
import shutil
import tempfile
import threading
import time
from pathlib import Path

import harness
from harness import gunicorn, say

CHAIN = 900_700
DATABASE = "postgres://postgres@127.0.0.1:5432/chain_registry_bench_issue"
PASSWORD = "bench issuer password"


def prepare(anvil_url: str, node) -> None:
    """The chain registered as the tests register theirs, its schemas indexed; a registrar
    who may bind for an api key."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from attestations.indexer import index_chain
    from eas_primitives.merkle import ROOT_SCHEMA
    from issuance.models import Membership
    from registry.models import ApiKey, Chain
    from tests.factories import ChainFactory, DeploymentFactory, RpcEndpointFactory

    chain = ChainFactory(chain_id=CHAIN, name="Bench chain", short_name="bench-issue",
                         confirmations=1)
    RpcEndpointFactory(chain=chain, url=anvil_url)
    DeploymentFactory(chain=chain, kind="schema_registry", address=node.deployment.schema_registry,
                      start_block=node.deployment.schema_registry_block)
    DeploymentFactory(chain=chain, kind="eas", address=node.deployment.eas,
                      start_block=node.deployment.eas_block)
    node.register_schema()
    node.register_schema(ROOT_SCHEMA)
    assert index_chain(chain).ok
    Chain.objects.filter(pk=CHAIN).update(binding_mode="merkle")
    user = get_user_model().objects.create_user("registrar", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_workflow",
                                                     content_type__app_label="bindings"))
    Membership.objects.create(user=user, api_key=ApiKey.issue(name="Bench registrar",
                                                              scope="api")[0])


def files(folder: Path, count: int, size: int) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        head = f"%PDF-1.4 bench document {n:06d} in {folder.name}\n".encode()
        path = folder / f"document-{n:06d}.pdf"
        path.write_bytes(head + b"%" * (size - len(head)))
        paths.append(str(path))
    return paths


def hashed(page, base_url: str, paths: list[str]) -> dict:
    """Pick `paths` on a fresh /issue and wait for the hashing; the page's own timings."""
    page.goto(f"{base_url}/issue")
    page.set_input_files("#files", paths)
    page.wait_for_function("!document.getElementById('bind').disabled", timeout=1_800_000)
    return page.evaluate("window.issueTimings")


def bind_loop(service_url: str, anvil_url: str, key: str, stop: threading.Event):
    from django.db import connection
    from web3 import HTTPProvider, Web3

    from attestations.indexer import index_chain
    from bindings.tracking import workflows_track
    from executor_client import ReferenceExecutor, ServiceClient
    from registry.models import Chain

    w3 = Web3(HTTPProvider(anvil_url))
    chain = Chain.objects.get(pk=CHAIN)
    account = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # anvil's 1
    try:
        while not stop.is_set():
            ReferenceExecutor(ServiceClient(service_url, key), "bench-issue", account,
                              lambda chain_id: w3, batch=250, receipt_timeout=30,
                              poll_seconds=0.1, out=lambda line: None).run(once=True)
            w3.provider.make_request("anvil_mine", [1])
            index_chain(chain)
            workflows_track()
            time.sleep(0.2)
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--small", type=int, default=200, help="1 MiB files to hash")
    parser.add_argument("--large-mib", type=int, default=128, help="one file this large")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("chromium is missing: run scripts/client_tools.sh as root")
    env = harness.bench_env()
    env["DATABASE_URL"] = harness.os.environ.get("DATABASE_URL", DATABASE)
    harness.psql(env["DATABASE_URL"], f"DROP DATABASE IF EXISTS "
                 f"{env['DATABASE_URL'].rsplit('/', 1)[1]} WITH (FORCE)", database="postgres")
    harness.ensure_database(env)
    harness.setup_django(env)

    # Playwright's sync API keeps an event loop in this thread, which Django takes for async
    # code; this process's ORM calls are plain synchronous ones.
    harness.os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    from bindings.models import Workflow
    from tests.anvil import Anvil
    from tests.conftest import deploy_eas_on

    anvil = Anvil(chain_id=CHAIN).start()
    folder = Path(tempfile.mkdtemp(prefix="issue-bench-"))
    stop = threading.Event()
    try:
        node = deploy_eas_on(anvil)
        prepare(anvil.url, node)
        executor_key = harness.create_api_key(env, "bench-issue-executor", "executor")
        # Its executor (anvil's account 1) on the key's allow-list: trusted once it proves
        # its address (docs/security.md).
        from registry.models import ApiKey

        ApiKey.objects.filter(prefix=executor_key.split(".")[0][4:]).update(
            allowed_addresses=["0x70997970c51812dc3a010c7d01b50e0d17dc79c8"])
        with gunicorn(env, workers=2) as port, sync_playwright() as playwright:
            base = f"http://127.0.0.1:{port}"
            browser = playwright.chromium.launch(executable_path=chromium,
                                                 args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(accept_downloads=True).new_page()
            page.goto(f"{base}/issue/login")
            page.fill("#id_username", "registrar")
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{base}/issue")

            small = hashed(page, base, files(folder / "small", args.small, 1 << 20))
            large = hashed(page, base, files(folder / "large", 1, args.large_mib << 20))
            for label, t in (("1 MiB files (Web Crypto)", small),
                             (f"one {args.large_mib} MiB file (streamed, noble)", large)):
                say(f"hashing {t['files']} x {label}: {t['bytes'] / 1e6:.0f} MB in "
                    f"{t['seconds']:.2f} s = {t['bytes'] / 1e6 / t['seconds']:.0f} MB/s")

            paths = files(folder / "documents", args.files, 2048)
            binder = threading.Thread(target=bind_loop, args=(base, anvil.url, executor_key, stop))
            binder.start()
            started = time.perf_counter()
            timings = hashed(page, base, paths)
            page.click("#bind")
            page.wait_for_url("**/issue/runs/*", timeout=600_000)
            submitted = time.perf_counter()
            page.wait_for_function(
                "document.getElementById('run-status').textContent.startsWith("
                f"'{args.files} of {args.files} confirmed')", timeout=1_800_000)
            confirmed = time.perf_counter()
            stop.set()
            binder.join()
            say(f"{args.files} files from the drop to all confirmed: {confirmed - started:.1f} s "
                f"(hashed in {timings['seconds']:.1f} s, submitted at {submitted - started:.1f} s; "
                f"{args.files / (confirmed - started):.0f} documents/s)")
            assert Workflow.objects.filter(state="confirmed").count() == args.files
            from issuance.slips import SLIPS_PER_ZIP

            for link, what, count in (
                    ("#receipt-json", "receipt (JSON)", args.files),
                    (".slips-zip >> nth=0", "slips ZIP (its first part)",
                     min(args.files, SLIPS_PER_ZIP))):
                began = time.perf_counter()
                with page.expect_download(timeout=600_000) as download:
                    page.click(link)
                size = Path(download.value.path()).stat().st_size
                took = time.perf_counter() - began
                say(f"{what} of {count} documents: {took:.1f} s ({size / 1e6:.1f} MB, "
                    f"{took * 1000 / count:.1f} ms per document)")
            browser.close()
    finally:
        stop.set()
        anvil.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
