"""What the house promises about its imports beyond what import-linter can say (its contracts
are in pyproject.toml; docs/decisions.md, "Layout"): no private name is imported across
modules, web3's providers and the standard library's HTTP clients only where the network
contract allows connections, and bench/'s scripts (not a package) import each other without
a circle."""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = CONFIG["root_packages"]
BENCH = ROOT / "bench"
SCRIPTS = {path.stem for path in BENCH.glob("*.py")}
# Django's public model options, spelled with an underscore.
PUBLIC_UNDERSCORED = {"_meta"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


# Each module of the project's packages, parsed, by its name; bench/'s scripts by theirs
# (`webhooks` and `trpc` are a package and a script).
SOURCES = {_module_name(path): _parse(path)
           for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
BENCH_SOURCES = {path.stem: _parse(path) for path in BENCH.glob("*.py")}


def _ours(module: str) -> bool:
    return module.split(".")[0] in {*PACKAGES, *SCRIPTS}


def _imports(tree: ast.Module):
    """(module, name) for each `from module import name`, (module, None) for `import module`
    (absolute imports: the project writes no relative ones)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            yield from ((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def private_names_used_across_modules(module: str, tree: ast.Module) -> list[str]:
    bound = {}  # a local name bound by an import from another of our modules
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom | ast.Import):
            continue
        for alias in node.names:
            source = node.module if isinstance(node, ast.ImportFrom) else alias.name
            if not source or not _ours(source) or source == module:
                continue
            if isinstance(node, ast.ImportFrom) and _private(alias.name):
                found.append(f"{module}: from {source} import {alias.name}")
            bound[alias.asname or alias.name.split(".")[0]] = source
    found += [f"{module}: {node.value.id}.{node.attr} ({bound[node.value.id]})"
              for node in ast.walk(tree)
              if isinstance(node, ast.Attribute) and _private(node.attr)
              and isinstance(node.value, ast.Name) and node.value.id in bound]
    return found


def test_no_private_name_is_imported_across_modules():
    found = [use for module, tree in [*SOURCES.items(), *BENCH_SOURCES.items()]
             for use in private_names_used_across_modules(module, tree)]

    assert found == []


def test_the_check_finds_a_private_name_taken_from_another_module():
    tree = ast.parse("from webhooks.tasks import _run\nfrom webhooks import tasks\n"
                     "tasks._mark()\nfrom registry.models import Chain\nChain._meta\n")

    assert private_names_used_across_modules("webhooks.services", tree) == [
        "webhooks.services: from webhooks.tasks import _run",
        "webhooks.services: tasks._mark (webhooks)"]


NETWORK = next(contract for contract in CONFIG["contracts"]
               if "requests" in contract.get("protected_modules", ()))
# What import-linter sees only as `web3`, `http` or `urllib`, which other modules import for
# their types, errors and parsing.
CLIENTS = ("http.client", "urllib.request", "web3.providers")


def connection_imports(tree: ast.Module) -> list[str]:
    found = []
    for module, name in _imports(tree):
        spelled = f"{module}.{name}" if name else module
        if spelled.startswith(CLIENTS) or (module == "web3" and name.endswith("Provider")):
            found.append(spelled)
    return found


def _allowed_to_connect(module: str) -> bool:
    return any(module == allowed or module.startswith(allowed + ".")
               for allowed in NETWORK["allowed_importers"])


def test_web3_providers_and_http_clients_only_where_connections_are_allowed():
    found = {module: imports for module, tree in SOURCES.items()
             if not _allowed_to_connect(module) and (imports := connection_imports(tree))}

    assert found == {}
    assert connection_imports(SOURCES["registry.chain_client"]) == [
        "web3.HTTPProvider", "web3.providers.base.JSONBaseProvider"]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of a graph: each strongly connected set of more than one node, sorted
    (Tarjan's algorithm)."""
    index, low, stack, found = {}, {}, [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = stack[stack.index(node):]
            del stack[stack.index(node):]
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_bench_scripts_import_each_other_without_a_circle():
    # A script imports another by its bare name (bench/ is on sys.path); `webhooks` and
    # `trpc`, the project's packages, share a name with a script.
    graph = {script: {module.split(".")[0] for module, _ in _imports(tree)
                      if module.split(".")[0] in SCRIPTS - set(PACKAGES)}
             for script, tree in BENCH_SOURCES.items()}

    assert graph["indexer"] == {"harness", "indexer_chains"}
    assert circles(graph) == []


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
