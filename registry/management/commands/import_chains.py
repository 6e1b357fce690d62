from pathlib import Path

from django.core.management.base import CommandError

from core.commands import ReportCommand
from registry.services import chains_import, read_chain_records


class Command(ReportCommand):
    help = (
        "Import chains from ethereum-lists/chains JSON: a file (one record or a list) or a "
        "folder of them (such as _data/chains). Idempotent; new chains are inactive unless "
        "--activate. Shows its progress on a terminal; --json prints the report for scripts."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("path", type=Path, metavar="PATH",
                            help="A chain record's JSON file, a JSON list of records, or a "
                            "folder of such files (read recursively).")
        parser.add_argument("--activate", action="store_true",
                            help="Make new chains active (default: inactive until an "
                            "administrator activates them); existing chains keep their status.")

    def handle(self, *args, path: Path, activate: bool, **options):
        if not path.exists():
            raise CommandError(f"{path} does not exist.")
        records, unreadable = read_chain_records(path)
        with self.progress(f"Importing {len(records)} chain records") as progress:
            report = chains_import(records, activate=activate, progress=progress)
        report.skipped[:0] = unreadable
        if not self.as_json:
            for source, reason in report.skipped:
                self.stderr.write(f"skipped {source}: {reason}")
        self.report(
            {"created": report.created, "updated": report.updated,
             "unchanged": report.unchanged,
             "skipped": [{"source": str(source), "reason": reason}
                         for source, reason in report.skipped]},
            [f"created {len(report.created)}, updated {len(report.updated)}, "
             f"unchanged {len(report.unchanged)}, skipped {len(report.skipped)}"])
