"""The README's layout tables tell a newcomer where things live: every path they name exists,
and each endpoint's row names the file whose view Django routes that path to."""

import re
from pathlib import Path

import pytest
from django.urls import get_resolver, resolve

ROOT = Path(__file__).resolve().parent.parent
CELL = re.compile(r"`([^`]+)`")
ENDPOINT = re.compile(r"^(GET|POST|PUT|PATCH|DELETE) (/\S*)$")


def _section(title: str) -> list[list[str]]:
    """The rows of the first table under the heading `title`, as lists of cells."""
    text = (ROOT / "README.md").read_text()
    start = text.index(f"\n{title}\n") + 1  # the heading line itself
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header row


FILE = re.compile(r"^[\w./-]+(\.(py|md|sh|html|conf|yml|toml)|/)$")


def _paths(cell: str) -> list[str]:
    return [name for name in CELL.findall(cell) if FILE.match(name)]


def _module_file(view) -> Path:
    cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
    module = (cls or view).__module__
    return ROOT / (module.replace(".", "/") + ".py")


def test_every_path_in_the_layout_exists():
    rows = _section("## Layout") + _section("### Where each endpoint lives")
    named, missing = [], []
    for row in rows:
        # A file named in a folder's row may be written relative to that folder.
        folders = [ROOT] + [ROOT / folder for folder in _paths(row[0]) if folder.endswith("/")]
        for path in (path for cell in row for path in _paths(cell)):
            named.append(path)
            if not any((folder / path).exists() for folder in folders):
                missing.append(path)
    assert len(named) >= 30
    assert missing == []


ENDPOINT_ROWS = _section("### Where each endpoint lives")
# A sample value for a placeholder that takes a particular form (a run's id is a UUID); "1"
# for the others: {chain} -> 1, {uid} -> 1, ...
SAMPLES = {"runId": "00000000-0000-4000-8000-000000000001", "prefix": "crk_0123456789ab"}


def _sample(template: str) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: SAMPLES.get(m.group(1), "1"), template)


@pytest.mark.parametrize("row", ENDPOINT_ROWS, ids=lambda row: row[0])
def test_each_endpoint_row_names_the_file_of_its_view(row):
    endpoints = [ENDPOINT.match(name) for name in CELL.findall(row[0])]
    files = [ROOT / path for path in _paths(row[1])]
    assert endpoints and all(endpoints) and files, row
    for match in endpoints:
        path = _sample(match.group(2))
        assert _module_file(resolve(path).func) in files, (match.group(0), files)


def _allows(view, method: str) -> bool:
    """Whether the view Django routes a path to answers `method` (a ViewSet maps its own)."""
    actions = getattr(view, "actions", None)
    if actions is not None:
        return method in actions
    cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if cls is None:  # a function view: it says which methods it takes when asked
        return True
    return method in cls.http_method_names and hasattr(cls, method)


@pytest.mark.parametrize("row", ENDPOINT_ROWS, ids=lambda row: row[0])
def test_each_endpoint_row_names_a_method_its_view_answers(row):
    # The README once said POST for the chain status action, which is a PATCH (issue 37).
    wrong = [m.group(0) for m in map(ENDPOINT.match, CELL.findall(row[0]))
             if not _allows(resolve(_sample(m.group(2))).func,
                            m.group(1).lower())]
    assert wrong == []


def test_every_routed_endpoint_has_a_row():
    documented = {_sample(m.group(2)) for row in ENDPOINT_ROWS
                  for m in map(ENDPOINT.match, CELL.findall(row[0])) if m}
    views = {_module_file(resolve(path).func) for path in documented}
    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern.url_patterns)
            else:
                yield pattern.callback

    apps = {"registry", "executors", "attestations", "verification", "bindings", "webhooks",
            "ops", "trpc", "issuance", "config", "issuers"}
    ours = {path for path in map(_module_file, walk(get_resolver().url_patterns))
            if path.relative_to(ROOT).parts[0] in apps}
    assert ours - views == set()
