"""The operators' commands, for people and for scripts: every argument has help; the long
ones (import_chains, index_chain, probe_rpcs, track_workflows) draw their progress on a
terminal (rich, core/progress.py) and nothing when their output is not one, and print one
JSON document with --json."""

import io
import json

import pytest
from django.core.management import call_command, get_commands, load_command_class

from registry.models import Chain
from tests.factories import ChainFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db

# Options every Django command has, documented by Django itself.
DJANGO_OPTIONS = {"help", "version", "verbosity", "settings", "pythonpath", "traceback",
                  "no_color", "force_color", "skip_checks"}
OURS = ("registry", "executors", "attestations", "verification", "bindings", "ops", "config")


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as a person's is."""

    def isatty(self) -> bool:
        return True


def records(count: int) -> list[dict]:
    return [{"name": f"Chain {n}", "chain": "T", "shortName": f"t{n}", "chainId": 800_000 + n,
             "networkId": 800_000 + n, "rpc": [], "faucets": [], "infoURL": "https://example.org",
             "nativeCurrency": {"name": "T", "symbol": "T", "decimals": 18}}
            for n in range(count)]


def run(name: str, *args, stderr=None) -> tuple[str, str]:
    out, err = io.StringIO(), stderr or io.StringIO()
    call_command(name, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(name for name, app in get_commands().items()
                                        if app in OURS))
def test_every_argument_of_our_commands_has_help(name):
    command = load_command_class(get_commands()[name], name)
    parser = command.create_parser("manage.py", name)
    assert command.help
    for action in parser._actions:
        if action.dest not in DJANGO_OPTIONS:
            assert action.help, f"{name}: {action.option_strings or action.dest} has no help"


def test_import_chains_draws_its_progress_on_a_terminal_only(tmp_path):
    path = tmp_path / "chains.json"
    path.write_text(json.dumps(records(120)))
    out, err = run("import_chains", str(path), stderr=Terminal())
    assert out.strip() == "created 120, updated 0, unchanged 0, kept 0, skipped 0"
    assert "Importing 120 chain records" in err and "120/120" in err
    out, err = run("import_chains", str(path))  # not a terminal: no progress at all
    assert out.strip() == "created 0, updated 0, unchanged 120, kept 0, skipped 0" and err == ""


def test_import_chains_json(tmp_path):
    ChainFactory(chain_id=800_001, name="Old name", short_name="t1", imported=True)
    path = tmp_path / "chains.json"
    path.write_text(json.dumps([*records(2), {"chainId": "x"}]))
    out, err = run("import_chains", str(path), "--json", stderr=Terminal())
    report = json.loads(out)
    assert report["created"] == [800_000] and report["updated"] == [800_001]
    assert report["unchanged"] == [] and report["kept"] == [] and report["dryRun"] is False
    (skipped,) = report["skipped"]
    assert skipped["source"] == "chains.json[2]" and "chainId" in skipped["reason"]
    assert err == ""  # --json: no progress, even on a terminal; the skip is in the report


def test_track_workflows_json_and_progress():
    out, err = run("track_workflows", "--json", stderr=Terminal())
    assert json.loads(out) == {"expired": 0, "requeued": 0, "confirmed": 0, "reverted": 0,
                               "reorganised": 0, "errors": {}}
    assert err == ""
    out, err = run("track_workflows", stderr=Terminal())
    assert out.startswith("expired 0, requeued 0")


@pytest.mark.chain
def test_probe_rpcs_json_and_progress(anvil_factory):
    node = anvil_factory()
    chain = ChainFactory(chain_id=31337, short_name="anvil")
    RpcEndpointFactory(chain=chain, url=node.url)
    RpcEndpointFactory(chain=chain, url="http://127.0.0.1:9/rpc?key=secret")  # nothing listens
    out, err = run("probe_rpcs", "--chain", "anvil", stderr=Terminal())
    assert "Probing RPC endpoints" in err and "2/2" in err
    report = json.loads(run("probe_rpcs", "--json")[0])
    assert report["summary"]["probed"] == 2
    by_url = {e["url"]: e for e in report["endpoints"]}
    assert by_url[node.url]["status"] == "healthy" and by_url[node.url]["headBlock"] >= 0
    assert "secret" not in out + json.dumps(report)  # a provider key is never printed


@pytest.mark.chain
def test_index_chain_json_and_progress(eas_chain):
    node = eas_chain.node
    node.register_schema()
    out, err = run("index_chain", "anvil", stderr=Terminal())
    assert "Indexing chain 31337 (blocks)" in err and "1 new schema(s)" in out
    node.register_schema("bytes32 documentHash,string note")
    report = json.loads(run("index_chain", "anvil", "--json")[0])
    assert report["chainId"] == 31337 and report["head"] == node.w3.eth.block_number
    registry = [d for d in report["deployments"] if d["kind"] == "schema_registry"][0]
    assert registry["schemas"] == 1 and registry["address"] == node.deployment.schema_registry
    assert Chain.objects.get(pk=31337).status == "active"
