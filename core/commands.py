"""The base of the operators' reporting commands: progress on a terminal for people, one
JSON document on standard output for scripts (`--json`)."""

import json

from django.core.management.base import BaseCommand

from core.progress import terminal_progress


class ReportCommand(BaseCommand):
    """A command that prints a report: as text, or with `--json` as one JSON document (and
    no progress). `self.progress(description)` draws on standard error while it is a
    terminal (core/progress.py)."""

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", dest="as_json",
                            help="Print the report as one JSON document on standard output, "
                            "for scripts; no progress is drawn.")

    def execute(self, *args, **options):
        self.as_json = options.get("as_json", False)
        return super().execute(*args, **options)

    def progress(self, description: str):
        # The wrapped stream: Django's OutputWrapper ends each write with a newline, which
        # would break the bar's redrawing.
        return terminal_progress(description, stream=getattr(self.stderr, "_out", self.stderr),
                                 quiet=self.as_json)

    def report(self, document: dict, text_lines) -> None:
        """Print `document` as JSON (`--json`), else `text_lines` (an iterable of lines)."""
        if self.as_json:
            self.stdout.write(json.dumps(document, indent=2, default=str))
        else:
            for line in text_lines:
                self.stdout.write(line)
