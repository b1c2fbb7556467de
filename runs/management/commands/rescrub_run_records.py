"""``manage.py rescrub_run_records [--dry-run]``: the kept run records, through the current secret detector."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from runs.rescrub import run_records_rescrub
from stores.management.base import JsonCommand


class Command(JsonCommand):
    help = (
        "Replace every secret the current detector finds in the run records kept so far (transcripts, "
        "events, lesson answers) by [REDACTED:<type>]. Prints counts, never values."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Count what would be replaced; change nothing.")

    def run(self, **options: Any) -> dict[str, Any]:
        return run_records_rescrub(dry_run=options["dry_run"]).as_dict()
