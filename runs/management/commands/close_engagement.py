"""``manage.py close_engagement KEY [--on DATE]``: close a project's engagement and purge its run records."""

from __future__ import annotations

import argparse
from datetime import date
from typing import Any

from django.core.management.base import CommandParser

from runs.retention import DEFAULT_BATCH_SIZE, close_engagement
from stores.management.base import JsonCommand, fail
from stores.models import JiraProject


def iso_date(value: str) -> date:
    """Parse YYYY-MM-DD for argparse, with a message that says how to write it."""
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date; write it as YYYY-MM-DD.") from exc


class Command(JsonCommand):
    help = (
        "Set a Jira project's engagement-closed date (today by default). Once the date is reached "
        "every run record of the project is deleted (at once when it is today or past) and new runs "
        "on its tickets are refused. Prints {key, closed_on, deleted, dry_run}; progress on stderr."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key", help="The Jira project key, for example ACME.")
        parser.add_argument("--on", type=iso_date, default=None, help="Closing date, YYYY-MM-DD (default today).")
        parser.add_argument(
            "--dry-run", action="store_true", help="Change nothing; count the records that would go now."
        )
        parser.add_argument(
            "--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
            help=f"Records deleted per transaction (default {DEFAULT_BATCH_SIZE}).",
        )

    def run(self, **options: Any) -> dict[str, Any]:
        self.verbosity = options["verbosity"]  # JsonCommand.progress reads it; BaseCommand does not set it
        key = options["key"].strip()
        project = JiraProject.objects.filter(key__iexact=key).first()
        if project is None:
            raise fail(f"No Jira project with key {key!r}. The keys are listed in the admin under Jira projects.")
        if options["batch_size"] < 1:
            raise fail("--batch-size must be a whole number of at least 1.")
        result = close_engagement(
            project,
            on=options["on"],
            dry_run=options["dry_run"],
            batch_size=options["batch_size"],
            progress=lambda batches, total: self.progress(batches, total, f"deleting {project.key} run records"),
        )
        return result.as_dict()
