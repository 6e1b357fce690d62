"""Registry workflows that go beyond one model save."""

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.core.validators import slug_re
from django.db import connection, transaction
from django.utils.text import slugify
from djangorestframework_camel_case.util import underscoreize
from drf_standardized_errors.formatter import flatten_errors

from core.errors import camel_attr
from core.progress import ProgressCallback, no_progress
from registry.models import Chain
from registry.serializers import ChainSerializer, chain_field_paths

TESTNET_SLIP44 = 1  # SLIP-44 coin type 1 is "Testnet (all coins)" in ethereum-lists


def read_chain_records(path: Path) -> tuple[list[tuple[str, object]], list[tuple[str, str]]]:
    """(source, record) pairs from a JSON file (one record or a list) or a folder of them."""
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    records, unreadable = [], []
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            unreadable.append((str(file), f"not readable as JSON: {exc}"))
            continue
        items = data if isinstance(data, list) else [data]
        records += [(f"{file.name}[{i}]" if isinstance(data, list) else file.name, item)
                    for i, item in enumerate(items)]
    return records, unreadable


def chain_fields_from_ethereum_lists(record: dict) -> dict:
    """An ethereum-lists/chains record in the admin API's wire format."""
    short_name = str(record.get("shortName") or "")
    explorers = record.get("explorers") or []
    fields = {
        "chainId": record.get("chainId"),
        "name": record.get("name"),
        # Kept as the list has it ("_old_fire" included) when it is a slug; only a name
        # with other characters is made one.
        "shortName": short_name if slug_re.match(short_name) else slugify(short_name),
        "isTestnet": record.get("slip44") == TESTNET_SLIP44 or "testnet" in str(record.get("name", "")).lower(),
    }
    if isinstance(record.get("nativeCurrency"), dict):
        fields["nativeCurrency"] = record["nativeCurrency"]
    if record.get("infoURL"):
        fields["infoUrl"] = record["infoURL"]
    if explorers and isinstance(explorers[0], dict) and explorers[0].get("url"):
        fields["explorerUrl"] = explorers[0]["url"]
    return fields


# Records written per transaction: each commit lets the other writers of a SQLite file (the
# scheduler, the server) in between, and a chunk takes well under a second.
IMPORT_CHUNK = 50
# SQLite's lock is not fair: a writer waiting for it sleeps up to 100 ms between tries, so
# one that begins its next chunk at once can keep it out past its busy timeout (the
# scheduler's tasks failed so, on a quiet machine). A pause longer than that sleep lets it in.
SQLITE_PAUSE_SECONDS = 0.12


@dataclass
class KeptChain:
    """A chain whose fields an administrator set, where the list has other values."""

    chain_id: int
    name: str
    by_hand: str  # "registered" or "edited"
    fields: list[str]  # wire paths (shortName, nativeCurrency.symbol)

    @property
    def reason(self) -> str:
        return (f"{', '.join(self.fields)} {self.by_hand} by an administrator; "
                "--overwrite replaces them with the list's")


@dataclass
class ChainChange:
    """One chain this import creates or updates: `values` are its new field values."""

    chain_id: int
    values: dict
    before: dict  # the values it replaces ({} for a new chain)
    chain: Chain | None = None  # the stored chain, for an update

    def as_dict(self) -> dict:
        """What changes, by wire path: {"chainId", "action", "fields": {path: {from, to}}}."""
        paths = chain_field_paths()
        return {"chainId": self.chain_id, "action": "update" if self.chain else "create",
                "fields": {camel_attr(paths.get(name, name)): {"from": self.before.get(name),
                                                               "to": value}
                           for name, value in self.values.items()}}

    def describe(self) -> str:
        paths = chain_field_paths()
        if self.chain is None:
            return f"would create {self.chain_id} ({self.values['name']}, {self.values['short_name']})"
        changed = "; ".join(f"{camel_attr(paths.get(name, name))} {self.before[name]!r} -> {value!r}"
                            for name, value in self.values.items())
        return f"would update {self.chain_id} ({self.chain.name}): {changed}"


@dataclass
class ImportReport:
    created: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    unchanged: list[int] = field(default_factory=list)
    kept: list[KeptChain] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (record, reason)
    changes: list[ChainChange] = field(default_factory=list)


def chains_import(records: list[tuple[str, object]], *, activate: bool = False,
                  overwrite: bool = False, dry_run: bool = False,
                  progress: ProgressCallback = no_progress) -> ImportReport:
    """Create or update chains from ethereum-lists records, validated as the API validates.

    Idempotent: a second run of the same records changes nothing. New chains are inactive
    unless `activate`; the status and confirmations of existing chains are left alone, and
    so is every field an administrator set or edited (`Chain.edited_fields`) unless
    `overwrite`. Short names may move between chains within one import (the list renamed
    one chain and gave its old name to another). `dry_run` plans and writes nothing (the
    report's `changes` say what would change). Writes commit in chunks of IMPORT_CHUNK
    records. `progress(done, total)` as records are checked, then as changes are written.
    """
    report = ImportReport()
    _plan(records, report, activate=activate, overwrite=overwrite, progress=progress)
    if not dry_run:
        _write(report.changes, overwrite=overwrite, progress=progress)
    return report


def _plan(records, report: ImportReport, *, activate: bool, overwrite: bool,
          progress: ProgressCallback) -> None:
    stored = Chain.objects.in_bulk()
    paths = chain_field_paths()
    planned: dict[int, tuple[str, ChainChange]] = {}  # chain id -> (record, change)
    for done, (source, record) in enumerate(records, 1):
        if done % 50 == 0 or done == len(records):
            progress(done, len(records))
        if not isinstance(record, dict):
            report.skipped.append((source, "not a JSON object"))
            continue
        payload = underscoreize(chain_fields_from_ethereum_lists(record))
        chain = stored.get(payload.get("chain_id")) if isinstance(payload.get("chain_id"), int) else None
        if chain is None:
            payload["status"] = Chain.Status.ACTIVE if activate else Chain.Status.INACTIVE
        else:
            payload.pop("chain_id")
        serializer = ChainSerializer(chain, data=payload, partial=chain is not None,
                                     context={"imported": True})
        if not serializer.is_valid():
            reason = "; ".join(f"{camel_attr(e.attr)}: {e.detail}"
                               for e in flatten_errors(serializer.errors))
            report.skipped.append((source, reason))
            continue
        values = dict(serializer.validated_data)
        chain_id = chain.chain_id if chain else values["chain_id"]
        if chain_id in planned:
            report.skipped.append((source, f"chainId: {planned[chain_id][0]} has this chain id too."))
            continue
        if chain is None:
            planned[chain_id] = (source, ChainChange(chain_id, values, {}))
            continue
        changed = {name: value for name, value in values.items() if getattr(chain, name) != value}
        kept = [] if overwrite else [name for name in chain.edited_fields if name in changed]
        if kept:
            report.kept.append(KeptChain(
                chain_id, chain.name,
                "registered" if chain.source == Chain.Source.ADMIN else "edited",
                [camel_attr(paths[name]) for name in kept]))
        changes = {name: value for name, value in changed.items() if name not in kept}
        if not changes:
            if not kept:
                report.unchanged.append(chain_id)
            continue
        planned[chain_id] = (source, ChainChange(
            chain_id, changes, {name: getattr(chain, name) for name in changes}, chain))

    held = {chain.short_name: chain.chain_id for chain in stored.values()}
    wanted = {chain_id: change.values["short_name"]
              for chain_id, (_, change) in planned.items() if "short_name" in change.values}
    for chain_id, holder in short_names_refused(held, wanted).items():
        source, _ = planned.pop(chain_id)
        report.skipped.append((source, "shortName: A chain with this short name exists "
                                       f"(chain {holder})."))
    report.changes = [change for _, change in planned.values()]
    report.created = [c.chain_id for c in report.changes if c.chain is None]
    report.updated = [c.chain_id for c in report.changes if c.chain is not None]


def short_names_refused(held: dict[str, int], wanted: dict[int, str]) -> dict[int, int]:
    """The chains of `wanted` that cannot take the short name they want, each with the chain
    that keeps it.

    `held`: each short name and the chain that has it now; `wanted`: the chains this import
    names anew (new chains, renamed ones), in the list's order. A name is free once its
    holder is renamed in the same import; a holder that is not keeps it; of the chains that
    want one free name, the first gets it. Refusing a rename keeps its chain's old name, which
    may refuse another: repeated until nothing changes.
    """
    refused: dict[int, int] = {}
    while True:
        renamed = {chain_id: name for chain_id, name in wanted.items() if chain_id not in refused}
        owner = {name: chain_id for name, chain_id in held.items() if chain_id not in renamed}
        newly = {}
        for chain_id, name in renamed.items():
            holder = owner.setdefault(name, chain_id)
            if holder != chain_id:
                newly[chain_id] = holder
        if not newly:
            return refused
        refused.update(newly)


def _write(changes: list[ChainChange], *, overwrite: bool, progress: ProgressCallback) -> None:
    # Renames first, together: each renamed chain gives up its name (for a placeholder no
    # real short name can be: all digits) before any takes its new one, so that names moving
    # between chains, even in a circle, never meet the unique constraint.
    renames = [c for c in changes if c.chain is not None and "short_name" in c.values]
    with transaction.atomic():
        for change in renames:
            Chain.objects.filter(pk=change.chain_id).update(short_name=str(change.chain_id))
        for change in renames:
            _save(change, overwrite=overwrite)
    rest = [c for c in changes if not (c.chain is not None and "short_name" in c.values)]
    for start in range(0, len(rest), IMPORT_CHUNK):
        with transaction.atomic():
            for change in rest[start:start + IMPORT_CHUNK]:
                _save(change, overwrite=overwrite)
        progress(len(renames) + min(start + IMPORT_CHUNK, len(rest)), len(changes))
        if connection.vendor == "sqlite":
            time.sleep(SQLITE_PAUSE_SECONDS)


def _save(change: ChainChange, *, overwrite: bool) -> None:
    if change.chain is None:
        Chain.objects.create(**change.values, source=Chain.Source.IMPORT, edited_fields=[])
        return
    chain = change.chain
    for name, value in change.values.items():
        setattr(chain, name, value)
    if overwrite:  # the list's values now: no longer as an administrator set them
        chain.edited_fields = [name for name in chain.edited_fields if name not in change.values]
    chain.save(update_fields=[*change.values, "edited_fields", "updated_at"])
