"""Progress of an operator's long command (import_chains, index_chain, probe_rpcs,
track_workflows), for a person at a terminal.

A service takes an optional `progress(done, total)` callback and calls it as it goes; the
command passes `terminal_progress`'s. That draws a rich progress bar on standard error when
standard error is a terminal, and nothing otherwise (a pipe, a log file, cron, Celery, a
test, `--json`): standard output keeps only the command's report.
"""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

ProgressCallback = Callable[[int, int], None]  # (done, total)


def no_progress(done: int, total: int) -> None:
    """The callback of a run that nobody watches."""


@contextmanager
def terminal_progress(description: str, *, stream=None,
                      quiet: bool = False) -> Iterator[ProgressCallback]:
    """A `progress(done, total)` callback that draws `description` and a bar on `stream`
    (standard error) while it is a terminal; `no_progress` when it is not, or `quiet`. The
    bar is removed when the block ends, leaving the command's own output."""
    console = Console(file=stream or sys.stderr)
    if quiet or not console.is_terminal:
        yield no_progress
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress
