"""``manage.py purge_run_records``: the retention purge the schedule runs daily, by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from runs.retention import DEFAULT_BATCH_SIZE, purge_run_records
from stores.management.base import JsonCommand, fail


class Command(JsonCommand):
    help = (
        "Delete run records older than their retention (RUN_RECORD_RETENTION_DAYS, or the client's "
        "days when fewer). Prints {deleted, dry_run}; progress on stderr."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Count the records that would go; delete nothing.")
        parser.add_argument(
            "--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
            help=f"Records deleted per transaction (default {DEFAULT_BATCH_SIZE}).",
        )

    def run(self, **options: Any) -> dict[str, Any]:
        self.verbosity = options["verbosity"]  # JsonCommand.progress reads it; BaseCommand does not set it
        if options["batch_size"] < 1:
            raise fail("--batch-size must be a whole number of at least 1.")
        result = purge_run_records(
            batch_size=options["batch_size"],
            dry_run=options["dry_run"],
            progress=lambda batches, total: self.progress(batches, total, "purging run records"),
        )
        return {"deleted": result.deleted, "dry_run": result.dry_run}
