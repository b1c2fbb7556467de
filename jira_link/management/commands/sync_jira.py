"""``manage.py sync_jira``: the same sync the Celery task runs, from the command line."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from jira_link.services import JiraUnavailable, sync_jira


class Command(BaseCommand):
    help = "Sync Jira projects and open tickets into the console (progress on stderr)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--json", action="store_true", help="Print one JSON object with the counts on stdout."
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="Count what would be synced; write nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dry_run: bool = options["dry_run"]
        try:
            result = sync_jira(dry_run=dry_run, progress=lambda line: self.stderr.write(line))
        except JiraUnavailable as exc:
            raise CommandError(f"Jira sync failed, nothing was written: {exc}") from exc
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
            return
        prefix = "Dry run: would sync" if dry_run else "Synced"
        self.stdout.write(
            f"{prefix} {result.tickets} open tickets from {result.projects} projects "
            f"({result.removed} rows {'to remove' if dry_run else 'removed'})."
        )
