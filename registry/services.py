"""Registry workflows that go beyond one model save."""

import json
from dataclasses import dataclass, field
from pathlib import Path

from django.core.validators import slug_re
from django.db import transaction
from django.utils.text import slugify
from djangorestframework_camel_case.util import underscoreize
from drf_standardized_errors.formatter import flatten_errors

from core.errors import camel_attr
from core.progress import ProgressCallback, no_progress
from registry.models import Chain
from registry.serializers import ChainSerializer

TESTNET_SLIP44 = 1  # SLIP-44 coin type 1 is "Testnet (all coins)" in ethereum-lists


@dataclass
class ImportReport:
    created: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    unchanged: list[int] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (record, reason)


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


def chains_import(records: list[tuple[str, object]], *, activate: bool = False,
                  progress: ProgressCallback = no_progress) -> ImportReport:
    """Create or update chains from ethereum-lists records, validated as the API validates.

    Idempotent: a second run of the same records changes nothing. New chains are inactive
    unless `activate`; the status and confirmations of existing chains are left alone.
    `progress(done, total)` every 50 records and at the end.
    """
    report = ImportReport()
    with transaction.atomic():
        for done, (source, record) in enumerate(records, 1):
            if done % 50 == 0 or done == len(records):
                progress(done, len(records))
            if not isinstance(record, dict):
                report.skipped.append((source, "not a JSON object"))
                continue
            payload = underscoreize(chain_fields_from_ethereum_lists(record))
            chain_id = payload.get("chain_id")
            existing = Chain.objects.filter(pk=chain_id).first() if isinstance(chain_id, int) else None
            if existing is None:
                payload["status"] = Chain.Status.ACTIVE if activate else Chain.Status.INACTIVE
            else:
                payload.pop("chain_id")
            serializer = ChainSerializer(existing, data=payload, partial=existing is not None,
                                         context={"imported": True})
            if not serializer.is_valid():
                reason = "; ".join(f"{camel_attr(e.attr)}: {e.detail}"
                                   for e in flatten_errors(serializer.errors))
                report.skipped.append((source, reason))
                continue
            if existing is not None and all(
                getattr(existing, name) == value for name, value in serializer.validated_data.items()
            ):
                report.unchanged.append(existing.chain_id)
                continue
            chain = serializer.save()
            (report.updated if existing else report.created).append(chain.chain_id)
    return report
