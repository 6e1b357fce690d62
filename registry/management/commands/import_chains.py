from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from registry.services import chains_import, read_chain_records


class Command(BaseCommand):
    help = (
        "Import chains from ethereum-lists/chains JSON: a file (one record or a list) or a "
        "folder of them (such as _data/chains). Idempotent; new chains are inactive unless "
        "--activate."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--activate", action="store_true", help="Make new chains active.")

    def handle(self, *args, path: Path, activate: bool, **options):
        if not path.exists():
            raise CommandError(f"{path} does not exist.")
        records, unreadable = read_chain_records(path)
        report = chains_import(records, activate=activate)
        report.skipped[:0] = unreadable
        for source, reason in report.skipped:
            self.stderr.write(f"skipped {source}: {reason}")
        self.stdout.write(
            f"created {len(report.created)}, updated {len(report.updated)}, "
            f"unchanged {len(report.unchanged)}, skipped {len(report.skipped)}"
        )
