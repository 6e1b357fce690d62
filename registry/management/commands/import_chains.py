from pathlib import Path

from django.core.management.base import CommandError

from core.commands import ReportCommand
from registry.services import chains_import, read_chain_records


class Command(ReportCommand):
    help = (
        "Import chains from ethereum-lists/chains JSON: a file (one record or a list) or a "
        "folder of them (such as _data/chains). Idempotent; new chains are inactive unless "
        "--activate; a field an administrator set or edited is left as it is unless "
        "--overwrite, and each chain so left is named with its fields. Shows its progress on "
        "a terminal; --json prints the report for scripts."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("path", type=Path, metavar="PATH",
                            help="A chain record's JSON file, a JSON list of records, or a "
                            "folder of such files (read recursively).")
        parser.add_argument("--activate", action="store_true",
                            help="Make new chains active (default: inactive until an "
                            "administrator activates them); existing chains keep their status.")
        parser.add_argument("--overwrite", action="store_true",
                            help="Replace the fields an administrator set or edited with the "
                            "list's values too (default: leave them, and name them).")
        parser.add_argument("--dry-run", action="store_true",
                            help="Print what would be created and changed; write nothing.")

    def handle(self, *args, path: Path, activate: bool, overwrite: bool, dry_run: bool,
               **options):
        if not path.exists():
            raise CommandError(f"{path} does not exist.")
        records, unreadable = read_chain_records(path)
        with self.progress(f"Importing {len(records)} chain records") as progress:
            report = chains_import(records, activate=activate, overwrite=overwrite,
                                   dry_run=dry_run, progress=progress)
        report.skipped[:0] = unreadable
        if not self.as_json:
            for source, reason in report.skipped:
                self.stderr.write(f"skipped {source}: {reason}")
        would = "would be " if dry_run else ""
        document = {
            "dryRun": dry_run, "created": report.created, "updated": report.updated,
            "unchanged": report.unchanged,
            "kept": [{"chainId": kept.chain_id, "fields": kept.fields, "reason": kept.reason}
                     for kept in report.kept],
            "skipped": [{"source": str(source), "reason": reason}
                        for source, reason in report.skipped],
        }
        if dry_run:
            document["changes"] = [change.as_dict() for change in report.changes]
        lines = [change.describe() for change in report.changes] if dry_run else []
        lines.append(f"{would}created {len(report.created)}, {would}updated "
                     f"{len(report.updated)}, unchanged {len(report.unchanged)}, kept "
                     f"{len(report.kept)}, skipped {len(report.skipped)}")
        lines += [f"kept {kept.chain_id} ({kept.name}): {kept.reason}" for kept in report.kept]
        self.report(document, lines)
